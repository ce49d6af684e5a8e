import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { describeFailure, GENERIC_FAILURE } from '../../src/render/errors.js';
import { humanDuration } from '../../src/render/format.js';
import { UpstreamError } from '../../src/services/upstream-error.js';

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
    expect(describeFailure(new Error('internal detail'))).toBe(GENERIC_FAILURE);
  });
});
