import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { UserError } from '../../src/interaction/errors.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { cardDatabaseFailureMessage } from '../../src/render/card-database.js';
import { describeFailure } from '../../src/render/errors.js';
import { humanDuration } from '../../src/render/format.js';
import { UpstreamError } from '../../src/interaction/upstream-error.js';

describe('humanDuration', () => {
  it('says a wait as people do: seconds under two minutes, then minutes, an hour, hours', () => {
    expect(humanDuration(1)).toBe('1 second');
    expect(humanDuration(40_000)).toBe('40 seconds');
    expect(humanDuration(119_000)).toBe('119 seconds');
    expect(humanDuration(5 * 60_000)).toBe('about 5 minutes');
    expect(humanDuration(60 * 60_000)).toBe('about an hour');
    expect(humanDuration(2 * 60 * 60_000)).toBe('about 2 hours');
    expect(humanDuration(0)).toBe('1 second');
  });

  it('says the same buckets in the user’s language', () => {
    const fr = messagesFor('fr');
    expect(humanDuration(1, fr)).toBe('1 seconde');
    expect(humanDuration(40_000, fr)).toBe('40 secondes');
    expect(humanDuration(5 * 60_000, fr)).toBe('environ 5 minutes');
    expect(humanDuration(60 * 60_000, fr)).toBe('environ une heure');
    expect(humanDuration(60 * 60_000, messagesFor('de'))).toBe('etwa einer Stunde');
    expect(humanDuration(2 * 60 * 60_000, messagesFor('it'))).toBe('circa 2 ore');
    expect(humanDuration(1, messagesFor('pt-BR'))).toBe('1 segundo');
  });
});

describe('describeFailure', () => {
  it('tells a YGOPRODeck block without Retry-After "in about an hour", not in seconds', () => {
    const blocked = new UpstreamError('ygoprodeck', 'rate_limited', 'blocked', { status: 403, retryAfterMs: 60 * 60_000 });
    expect(describeFailure(blocked)).toBe('YGOPRODeck asked us to slow down; try again in about an hour.');
  });

  it('keeps short waits exact, and has a sentence for a wait nobody stated', () => {
    expect(describeFailure(new UpstreamError('wallhaven', 'rate_limited', '429', { retryAfterMs: 28_000 }))).toBe(
      'Wallhaven asked us to slow down; try again in 28 seconds.',
    );
    expect(describeFailure(new UpstreamError('geojs', 'busy', 'queue full'))).toBe('Almanac is busy with GeoJS requests; try again in a few seconds.');
    expect(describeFailure(new UserError('Give an IP address.'))).toBe('Give an IP address.');
    expect(describeFailure(new Error('internal detail'))).toBe(en.errors.generic);
  });
});

describe('failure sentences in the user’s language', () => {
  it('says waits in words of the user’s language', () => {
    const blocked = new UpstreamError('ygoprodeck', 'rate_limited', 'blocked', { status: 403, retryAfterMs: 60 * 60_000 });
    expect(describeFailure(blocked, messagesFor('fr'))).toBe('YGOPRODeck nous demande de ralentir ; réessayez dans environ une heure.');
    expect(describeFailure(blocked, messagesFor('de'))).toContain('in etwa einer Stunde');
  });

  it('says why the card database is missing and when the next attempt is', () => {
    const failure = { reason: 'unavailable', at: 0, nextAttemptAt: 5 * 60_000 };
    expect(cardDatabaseFailureMessage(failure, 0)).toBe(
      'The card database is not available yet: YGOPRODeck could not be reached, and the next attempt is in about 5 minutes. Try again after that.',
    );
    expect(cardDatabaseFailureMessage(failure, 0, messagesFor('fr'))).toBe(
      'La base de cartes n’est pas encore disponible : YGOPRODeck est injoignable, et la prochaine tentative est dans environ 5 minutes. Réessayez ensuite.',
    );
    expect(cardDatabaseFailureMessage({ reason: 'error', at: 0, nextAttemptAt: null }, 0, messagesFor('it'))).toBe(
      'Il database delle carte non è ancora disponibile: il download non è riuscito, e si sta riprovando ora. Riprova dopo.',
    );
  });
});
