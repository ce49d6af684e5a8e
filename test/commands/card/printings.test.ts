import { describe, expect, it } from 'vitest';
import { showPrintings } from '../../../commands/card/printings.js';
import { en } from '../../../src/i18n/en.js';
import { componentContext, dumpCard, stubServices } from '../../helpers/command-contexts.js';

const BLUE_EYES = dumpCard(89631139);
const cards = { byId: (id: number) => (id === BLUE_EYES.id ? BLUE_EYES : undefined), printings: (card: typeof BLUE_EYES) => card.sets };

describe('Printings under a card', () => {
  it('opens the printings in a new reply from the button, and turns its pages in place', () => {
    const opened = showPrintings(componentContext('card:printings:89631139'), stubServices({ cards }), BLUE_EYES.id, null);
    expect('reply' in opened && opened.reply.embeds?.[0]?.title).toBe(en.card.printingsOf('Blue-Eyes White Dragon'));
    const turned = showPrintings(componentContext('card:printings:89631139:1'), stubServices({ cards }), BLUE_EYES.id, 1);
    expect('update' in turned).toBe(true);
  });

  it('says the card is gone when the database no longer has it', () => {
    expect(() => showPrintings(componentContext('card:printings:1'), stubServices({ cards }), 1, null)).toThrow(en.card.cardGone);
  });
});
