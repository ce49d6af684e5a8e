import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/cards/card.js';
import { UI_LOCALES } from '../../src/i18n/catalogue.js';
import { CATALOGUES } from '../../src/i18n/messages.js';
import { embedCharacterCount, EMBED_LIMITS } from '../../src/render/format.js';
import { renderInlineCards, type InlineCardAnswer } from '../../src/render/inline-cards.js';
import { normalisedDumpCards } from '../helpers/card-dump.js';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);

/** The three cards with the longest texts: the worst case for one message's 6,000 characters. */
const longestCards: Card[] = [...(await normalisedDumpCards())].sort((a, b) => b.description.text.length - a.description.text.length).slice(0, 3);

describe('renderInlineCards', () => {
  const cards = longestCards;
  const answers: InlineCardAnswer[] = cards.map((card, index) => ({
    query: card.name.slice(0, 12),
    card,
    art: { format: 'jpg', data: JPEG },
    alsoClose: index === 1 ? ['Dark Magician', 'Dark Magician Girl', 'Dark Magician of Chaos'] : index === 2 ? [] : null,
  }));

  it.each(UI_LOCALES)('%s: three of the longest cards fit one message, each art attached by name', (locale) => {
    const reply = renderInlineCards({ answers, messages: CATALOGUES[locale], attachFiles: true });
    expect(reply.embeds).toHaveLength(3);
    const total = reply.embeds!.reduce((sum, embed) => sum + embedCharacterCount(embed), 0);
    expect(total).toBeLessThanOrEqual(EMBED_LIMITS.total);
    expect(reply.files!.map((file) => file.name)).toEqual(cards.map((card) => `card-${card.id}.jpg`));
    expect(reply.embeds!.map((embed) => embed.image?.url)).toEqual(cards.map((card) => `attachment://card-${card.id}.jpg`));
    expect(reply.content!.split('\n')).toHaveLength(2);
    expect(reply.content!.length).toBeLessThanOrEqual(EMBED_LIMITS.content);
    expect(JSON.stringify(reply.embeds)).not.toMatch(/\bundefined\b|\bnull\b|\bNaN\b/);
  });

  it('offers the other close cards in the reader’s words, and says when there are none', () => {
    const reply = renderInlineCards({ answers, messages: CATALOGUES.en, attachFiles: true });
    const [second, third] = reply.content!.split('\n');
    expect(second).toBe(
      `No card is named exactly “${answers[1]!.query}”; here is the closest. Did you mean **Dark Magician**, **Dark Magician Girl**, or **Dark Magician of Chaos**?`,
    );
    expect(third).toBe(`No card is named exactly “${answers[2]!.query}”; here is the closest.`);
    expect(renderInlineCards({ answers, messages: CATALOGUES.fr, attachFiles: true }).content).toContain('**Dark Magician Girl** ou **Dark Magician of Chaos** ?');
  });

  it('quotes what was written inert: no mention, link or markdown reaches the line', () => {
    const reply = renderInlineCards({ answers: [{ ...answers[2]!, query: '@everyone **x** https://evil.example' }], messages: CATALOGUES.en, attachFiles: true });
    expect(reply.content).not.toContain('@everyone');
    expect(reply.content).not.toContain('https://');
    expect(reply.content).not.toContain('**x**');
  });

  it('attaches nothing where files may not be attached, and says why, never linking the art instead', () => {
    const reply = renderInlineCards({ answers: [answers[0]!], messages: CATALOGUES.de, attachFiles: false });
    expect(reply.files).toBeUndefined();
    expect(reply.embeds![0]!.image).toBeUndefined();
    expect(reply.content).toBe(CATALOGUES.de.install.artNotAttachable);
  });
});
