import { z } from 'zod';
import type { Card, CardLanguage, CardText, LocalizedCard } from './card.js';

/**
 * One card's name and texts in another language, as a language database (`cardinfo.php?language=…`)
 * has them. Everything else about the card (stats, prices, printings) comes from the English
 * database, so a translated card never disagrees with the English one.
 */
export interface CardTranslation {
  /** The passcode: what ties the translation to the English card. */
  id: number;
  name: string;
  description: CardText;
}

const cardTranslationSchema = z.object({
  id: z.number().int().positive(),
  name: z.string().min(1),
  description: z.object({ text: z.string(), pendulumEffect: z.string().optional(), monsterEffect: z.string().optional() }),
});

/** A structural check of a translation read back from our own (checksummed) snapshot. */
export function isCardTranslation(value: unknown): value is CardTranslation {
  return cardTranslationSchema.safeParse(value).success;
}

/** The translatable part of a card normalised from a `language=` response. */
export function translationOf(card: Card): CardTranslation {
  return { id: card.id, name: card.name, description: card.description };
}

/** The English `card` with its name and texts in `language`. */
export function localizeCard(card: Card, translation: CardTranslation, language: CardLanguage): LocalizedCard {
  return { ...card, name: translation.name, description: translation.description, language, englishName: card.name };
}
