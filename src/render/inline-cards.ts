import type { PresentedCard } from '../cards/card.js';
import type { Catalogue } from '../i18n/catalogue.js';
import type { Attachment, MessagePayload } from '../interaction/reply.js';
import { cardEmbedWithArt } from './card.js';
import { EMBED_LIMITS, truncate } from './format.js';
import { fitText, quoteUserText } from './user-text.js';

/** The reply to a message that names cards inline (`<name>`, `[[name]]`): one embed per card, art attached. */

/** One name of the message and the card it was read as, shown as `CardService.present` had it (`art` null when it could not be had). */
export interface InlineCardAnswer extends PresentedCard {
  /** The name as written in the message. */
  query: string;
  /** Null when the name was matched with confidence; else the names of the other close cards (maybe none). */
  alsoClose: readonly string[] | null;
}

interface InlineCardsView {
  answers: readonly InlineCardAnswer[];
  messages: Catalogue;
  /** Discord lets Almanac attach files in this channel; without it the cards show without art, and a note says why. */
  attachFiles: boolean;
}

function looseMatchLine(answer: InlineCardAnswer, messages: Catalogue): string | null {
  if (answer.alsoClose === null) return null;
  const query = quoteUserText(answer.query);
  const names = answer.alsoClose.map((name) => `**${fitText(name, 100)}**`);
  if (names.length === 0) return messages.inline.closest(query);
  return messages.inline.alsoClose(query, new Intl.ListFormat(messages.intlLocale, { type: 'disjunction' }).format(names));
}

/**
 * Every card in one message: each embed gets an equal part of Discord's 6,000 characters, its art
 * attached (never linked), and a line for each name matched only loosely, offering the other close
 * cards. No buttons: the reply is edited or deleted with its message, and nothing on it expires.
 */
export function renderInlineCards(view: InlineCardsView): MessagePayload {
  const { answers, messages, attachFiles } = view;
  const maxChars = Math.floor(EMBED_LIMITS.total / Math.max(1, answers.length));
  const files: Attachment[] = [];
  const embeds = answers.map((answer) => {
    const shown = cardEmbedWithArt(answer.card, attachFiles ? answer.art : null, {
      messages,
      maxChars,
      translationUnavailable: answer.translationUnavailable,
    });
    files.push(...shown.files);
    return shown.embed;
  });
  const lines = answers.map((answer) => looseMatchLine(answer, messages)).filter((line) => line !== null);
  if (!attachFiles) lines.push(messages.install.artNotAttachable);
  return {
    ...(lines.length === 0 ? {} : { content: truncate(lines.join('\n'), EMBED_LIMITS.content) }),
    embeds,
    ...(files.length === 0 ? {} : { files }),
  };
}
