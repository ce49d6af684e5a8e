/**
 * Where a card is described elsewhere, as link buttons under it: no request is made for them
 * (upstreams.md § 6).
 */

/** Languages Konami's card database pages come in (`request_locale`). */
const KONAMI_LOCALES = ['en', 'fr', 'de', 'it', 'pt'] as const;
type KonamiLocale = (typeof KONAMI_LOCALES)[number];

/**
 * The card's Yugipedia page: a MediaWiki title, spaces as `_`, then percent-encoded (`#` would cut
 * the title, `?` and `&` would start a query). `/` and `:` stay as they are, as MediaWiki writes them.
 */
export function yugipediaUrl(englishName: string): string {
  const title = encodeURIComponent(englishName.trim().replace(/\s+/g, '_')).replace(/%2F/g, '/').replace(/%3A/g, ':');
  return `https://yugipedia.com/wiki/${title}`;
}

/** The card's page in Konami's official database, in `language` (a BCP 47 tag; English unless Konami has it). */
export function konamiDatabaseUrl(konamiId: number, language: string): string {
  const primary = language.slice(0, 2).toLowerCase();
  const locale: KonamiLocale = (KONAMI_LOCALES as readonly string[]).includes(primary) ? (primary as KonamiLocale) : 'en';
  return `https://www.db.yugioh-card.com/yugiohdb/card_search.action?ope=2&cid=${konamiId}&request_locale=${locale}`;
}

/**
 * The card's Q&A (rulings) in Konami's OCG database. The Q&A exists only in Japanese, so the page is
 * always asked for in Japanese, whatever the reader's language (Bastion builds the same link).
 */
export function ocgRulingsUrl(konamiId: number): string {
  return `https://www.db.yugioh-card.com/yugiohdb/faq_search.action?ope=4&cid=${konamiId}&request_locale=ja`;
}
