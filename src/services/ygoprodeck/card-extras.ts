import type { Logger } from 'pino';
import type { Card, CardArt, CardLanguage, LocalizedCard, PresentedCard } from '../../cards/card.js';
import type { CardSet } from '../../cards/card-set.js';
import { localizeCard } from '../../cards/card-translation.js';
import { LATE, raceDeadline } from '../../interaction/deadline.js';
import { isUpstreamError, UpstreamError } from '../../interaction/upstream-error.js';
import type { MemberShareSpender } from '../../upstream/cache.js';
import type { CardDatabase } from './card-database.js';
import { imageType, type CardImageStore } from './card-images.js';
import type { YgoprodeckClient } from './ygoprodeck.js';

/**
 * What only adds to a card reply, and so never fails it: the card's text in the user's language
 * and the art of a card or a set.
 */

/**
 * Longest a reply waits for what only adds to it: card or set art not stored yet, a translation. Past
 * it the card is shown without; the download goes on, so a later reply has it. Waiting for a free
 * request slot and then YGOPRODeck's own 15 s timeout would hold the answer past the 20 s a user
 * should ever wait when YGOPRODeck hangs.
 */
const OPTIONAL_EXTRA_WAIT_MS = 5_000;

interface CardExtrasDeps {
  database: Pick<CardDatabase, 'hasTexts' | 'translation'>;
  client: Pick<YgoprodeckClient, 'localized'>;
  images: Pick<CardImageStore, 'get' | 'getSetImage'>;
  logger: Logger;
}

export class CardExtras {
  constructor(private readonly deps: CardExtrasDeps) {}

  /**
   * The card with its name and texts in `language`; undefined when YGOPRODeck has not translated it
   * (it is then shown in English). Everything else (stats, prices, printings) stays as in the
   * English database, so a translated card never disagrees with the English one.
   *
   * Local once the language's database has loaded: no request at all. Before that (a first start
   * downloads English first, then each language), the translation is asked upstream (cached), as
   * it was before language databases existed, so a French user does not get English text for the
   * minute a first download takes; that path throws the client's UpstreamError.
   */
  async localize(card: Card, language: CardLanguage, share?: MemberShareSpender): Promise<LocalizedCard | undefined> {
    if (this.deps.database.hasTexts(language)) {
      const translation = this.deps.database.translation(card.id, language);
      return translation === undefined ? undefined : localizeCard(card, translation, language);
    }
    const translated = await raceDeadline(this.deps.client.localized(card.id, language, share), OPTIONAL_EXTRA_WAIT_MS);
    if (translated === LATE) throw new UpstreamError('ygoprodeck', 'unavailable', 'the translation is taking too long');
    return localizeCard(card, translated, language);
  }

  /**
   * The art of a card (its main image, or the artwork `imageId` of its `imageIds`) or of a set, from
   * the local store (downloaded once when missing), or null when it has none or it cannot be had
   * right now (`share` refusing its download included): the card or set is then shown without it.
   */
  async art(of: Card | CardSet, share?: MemberShareSpender, imageId?: number): Promise<CardArt | null> {
    const wanted = artOf(of, imageId);
    if (wanted === null) return null;
    try {
      const stored =
        'imageId' in wanted.image ? this.deps.images.get(wanted.image.imageId, 'full', share) : this.deps.images.getSetImage(wanted.image.imageStem, share);
      const data = await raceDeadline(stored, OPTIONAL_EXTRA_WAIT_MS);
      if (data === LATE) {
        this.deps.logger.info(wanted.about, `${wanted.shownWithout}: still downloading`);
        return null;
      }
      const format = imageType(data);
      return format === undefined ? null : { format, data };
    } catch (error) {
      const level = isUpstreamError(error) ? 'info' : 'warn';
      this.deps.logger[level]({ err: error, ...wanted.about }, wanted.shownWithout);
      return null;
    }
  }

  /**
   * A card as a reply shows it: in `language` when YGOPRODeck has translated it, and with its art
   * when `withArt` (Discord may not let the reply attach files). A missing translation or art never
   * fails it; both downloads are spent from `share`. Why a card stays in English goes to `log`.
   */
  async present(
    card: Card,
    language: CardLanguage | undefined,
    options: { share?: MemberShareSpender; withArt: boolean; log: Logger },
  ): Promise<PresentedCard> {
    const { log, share } = options;
    const translation =
      language === undefined
        ? null
        : this.localize(card, language, share)
            .then((translated) => {
              if (translated === undefined) log.info({ cardId: card.id, language }, 'card shown in English: not translated upstream');
              return translated;
            })
            .catch((error: unknown) => {
              log.info({ err: error, cardId: card.id, language }, 'card shown in English: no translation');
              return undefined;
            });
    const [translated, art] = await Promise.all([translation, options.withArt ? this.art(card, share) : null]);
    return {
      card: translated ?? card,
      art,
      ...(language !== undefined && translated === undefined ? { translationUnavailable: language } : {}),
    };
  }
}

/** Which stored image is the art of a card (its main image) or of a set (none for some sets), and what its absence is logged as. */
function artOf(
  of: Card | CardSet,
  artworkId: number | undefined,
): { image: { imageId: number } | { imageStem: string }; about: Record<string, unknown>; shownWithout: string } | null {
  if ('imageIds' in of) {
    // Only the card's own artworks: an id from elsewhere never reaches the image host.
    const imageId = artworkId !== undefined && of.imageIds.includes(artworkId) ? artworkId : (of.imageIds[0] ?? of.id);
    return { image: { imageId }, about: { cardId: of.id, imageId }, shownWithout: 'card shown without its art' };
  }
  if (of.imageStem === undefined) return null;
  return { image: { imageStem: of.imageStem }, about: { set: of.key, imageStem: of.imageStem }, shownWithout: 'card set shown without its image' };
}
