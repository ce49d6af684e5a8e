/**
 * Ban lists: `/card banlist`, and the post `/subscribe banlist` makes when a list changes, in every
 * language (each catalogue's `banlist`). Format names are the game's own, the same everywhere.
 */
export const banlistEn = {
  unavailable: '`/card banlist` is not available on this Almanac: it keeps ban-list history in its database, and none is configured.',
  noneYet: 'Almanac has not seen this ban list yet: it records each list when the card database loads. Try again in a few minutes.',
  title: (format: string) => `${format} ban list`,
  version: (version: string, seen: string) => `Card database version ${version}, seen ${seen}`,
  empty: 'No card is on this list.',
  page: (page: number, pages: number) => `Page ${page} of ${pages}`,
  statuses: { Forbidden: 'Forbidden', Limited: 'Limited', 'Semi-Limited': 'Semi-Limited', Unlimited: 'Unlimited' },
  changesTitle: (format: string) => `${format} ban list: what changed`,
  changesBetween: (from: string, fromSeen: string, to: string, toSeen: string) => `From version ${from} (seen ${fromSeen}) to version ${to} (seen ${toSeen})`,
  keepingSince: (since: string) =>
    `YGOPRODeck keeps no past ban lists, so Almanac keeps them itself, since ${since}. The list has not changed since then: changes show here once it does.`,
  groups: { Forbidden: 'Newly Forbidden', Limited: 'Now Limited', 'Semi-Limited': 'Now Semi-Limited', Unlimited: 'No longer limited' },
  moved: (name: string, from: string) => `${name} (was ${from})`,
  points: (name: string, from: number, to: number) => `${name}: ${from} → ${to} points`,
  pointsGroup: 'Points changed',
  more: (count: number) => `…and ${count} more`,
  postTitle: (format: string) => `The ${format} ban list changed`,
  decksTitle: 'Decks shown here in the last 90 days that this makes illegal',
  deck: (shown: string, cards: string) => `Deck shown ${shown}: ${cards}`,
  offence: (copies: number, name: string, status: string) => `${copies}× ${name} (now ${status})`,
};

type Banlist = typeof banlistEn;

export const banlistFr: Banlist = {
  unavailable: '`/card banlist` n’est pas disponible sur cet Almanac : il garde l’historique des listes dans sa base de données, et aucune n’est configurée.',
  noneYet: 'Almanac n’a pas encore vu cette liste : il enregistre chaque liste au chargement de la base de cartes. Réessayez dans quelques minutes.',
  title: (format: string) => `Liste des cartes interdites et limitées ${format}`,
  version: (version: string, seen: string) => `Base de cartes version ${version}, vue ${seen}`,
  empty: 'Aucune carte n’est sur cette liste.',
  page: (page: number, pages: number) => `Page ${page} sur ${pages}`,
  statuses: { Forbidden: 'Interdite', Limited: 'Limitée', 'Semi-Limited': 'Semi-limitée', Unlimited: 'Illimitée' },
  changesTitle: (format: string) => `Liste ${format} : ce qui a changé`,
  changesBetween: (from: string, fromSeen: string, to: string, toSeen: string) => `De la version ${from} (vue ${fromSeen}) à la version ${to} (vue ${toSeen})`,
  keepingSince: (since: string) =>
    `YGOPRODeck ne garde pas les anciennes listes : Almanac les garde lui-même, depuis ${since}. La liste n’a pas changé depuis : les changements s’afficheront ici dès qu’elle changera.`,
  groups: { Forbidden: 'Désormais interdites', Limited: 'Désormais limitées', 'Semi-Limited': 'Désormais semi-limitées', Unlimited: 'Plus limitées' },
  moved: (name: string, from: string) => `${name} (avant : ${from})`,
  points: (name: string, from: number, to: number) => `${name} : ${from} → ${to} points`,
  pointsGroup: 'Points modifiés',
  more: (count: number) => `…et ${count} de plus`,
  postTitle: (format: string) => `La liste ${format} a changé`,
  decksTitle: 'Decks montrés ici ces 90 derniers jours que ce changement rend illégaux',
  deck: (shown: string, cards: string) => `Deck montré ${shown} : ${cards}`,
  offence: (copies: number, name: string, status: string) => `${copies}× ${name} (désormais ${status})`,
};

export const banlistDe: Banlist = {
  unavailable: '`/card banlist` ist bei diesem Almanac nicht verfügbar: Die Verlaufsdaten der Listen liegen in seiner Datenbank, und keine ist eingerichtet.',
  noneYet: 'Almanac hat diese Liste noch nicht gesehen: Er speichert jede Liste, wenn die Kartendatenbank lädt. Versuche es in ein paar Minuten erneut.',
  title: (format: string) => `${format}-Bannliste`,
  version: (version: string, seen: string) => `Kartendatenbank Version ${version}, gesehen ${seen}`,
  empty: 'Keine Karte steht auf dieser Liste.',
  page: (page: number, pages: number) => `Seite ${page} von ${pages}`,
  statuses: { Forbidden: 'Verboten', Limited: 'Limitiert', 'Semi-Limited': 'Semi-limitiert', Unlimited: 'Unlimitiert' },
  changesTitle: (format: string) => `${format}-Bannliste: Was sich geändert hat`,
  changesBetween: (from: string, fromSeen: string, to: string, toSeen: string) => `Von Version ${from} (gesehen ${fromSeen}) zu Version ${to} (gesehen ${toSeen})`,
  keepingSince: (since: string) =>
    `YGOPRODeck speichert keine früheren Bannlisten, daher speichert Almanac sie selbst, seit ${since}. Seitdem hat sich die Liste nicht geändert: Änderungen erscheinen hier, sobald sie es tut.`,
  groups: { Forbidden: 'Neu verboten', Limited: 'Jetzt limitiert', 'Semi-Limited': 'Jetzt semi-limitiert', Unlimited: 'Nicht mehr limitiert' },
  moved: (name: string, from: string) => `${name} (vorher ${from})`,
  points: (name: string, from: number, to: number) => `${name}: ${from} → ${to} Punkte`,
  pointsGroup: 'Punkte geändert',
  more: (count: number) => `…und ${count} weitere`,
  postTitle: (format: string) => `Die ${format}-Bannliste hat sich geändert`,
  decksTitle: 'Hier in den letzten 90 Tagen gezeigte Decks, die dadurch illegal werden',
  deck: (shown: string, cards: string) => `Deck gezeigt ${shown}: ${cards}`,
  offence: (copies: number, name: string, status: string) => `${copies}× ${name} (jetzt ${status})`,
};

export const banlistIt: Banlist = {
  unavailable: '`/card banlist` non è disponibile su questo Almanac: conserva la cronologia delle liste nel suo database, e nessuno è configurato.',
  noneYet: 'Almanac non ha ancora visto questa lista: registra ogni lista quando il database delle carte si carica. Riprova tra qualche minuto.',
  title: (format: string) => `Lista carte proibite e limitate ${format}`,
  version: (version: string, seen: string) => `Database delle carte versione ${version}, visto ${seen}`,
  empty: 'Nessuna carta è in questa lista.',
  page: (page: number, pages: number) => `Pagina ${page} di ${pages}`,
  statuses: { Forbidden: 'Proibita', Limited: 'Limitata', 'Semi-Limited': 'Semi-limitata', Unlimited: 'Illimitata' },
  changesTitle: (format: string) => `Lista ${format}: cosa è cambiato`,
  changesBetween: (from: string, fromSeen: string, to: string, toSeen: string) => `Dalla versione ${from} (vista ${fromSeen}) alla versione ${to} (vista ${toSeen})`,
  keepingSince: (since: string) =>
    `YGOPRODeck non conserva le liste passate, quindi Almanac le conserva da sé, da ${since}. Da allora la lista non è cambiata: i cambiamenti appariranno qui appena cambierà.`,
  groups: { Forbidden: 'Ora proibite', Limited: 'Ora limitate', 'Semi-Limited': 'Ora semi-limitate', Unlimited: 'Non più limitate' },
  moved: (name: string, from: string) => `${name} (prima: ${from})`,
  points: (name: string, from: number, to: number) => `${name}: ${from} → ${to} punti`,
  pointsGroup: 'Punti cambiati',
  more: (count: number) => `…e altre ${count}`,
  postTitle: (format: string) => `La lista ${format} è cambiata`,
  decksTitle: 'Deck mostrati qui negli ultimi 90 giorni che questo rende illegali',
  deck: (shown: string, cards: string) => `Deck mostrato ${shown}: ${cards}`,
  offence: (copies: number, name: string, status: string) => `${copies}× ${name} (ora ${status})`,
};

export const banlistPtBR: Banlist = {
  unavailable: '`/card banlist` não está disponível neste Almanac: ele guarda o histórico das listas no banco de dados, e nenhum está configurado.',
  noneYet: 'O Almanac ainda não viu esta lista: ele registra cada lista quando o banco de cartas carrega. Tente de novo em alguns minutos.',
  title: (format: string) => `Lista de banidas ${format}`,
  version: (version: string, seen: string) => `Banco de cartas versão ${version}, visto ${seen}`,
  empty: 'Nenhuma carta está nesta lista.',
  page: (page: number, pages: number) => `Página ${page} de ${pages}`,
  statuses: { Forbidden: 'Proibida', Limited: 'Limitada', 'Semi-Limited': 'Semilimitada', Unlimited: 'Ilimitada' },
  changesTitle: (format: string) => `Lista ${format}: o que mudou`,
  changesBetween: (from: string, fromSeen: string, to: string, toSeen: string) => `Da versão ${from} (vista ${fromSeen}) à versão ${to} (vista ${toSeen})`,
  keepingSince: (since: string) =>
    `O YGOPRODeck não guarda listas antigas, então o Almanac as guarda por conta própria, desde ${since}. A lista não mudou desde então: as mudanças aparecem aqui assim que ela mudar.`,
  groups: { Forbidden: 'Agora proibidas', Limited: 'Agora limitadas', 'Semi-Limited': 'Agora semilimitadas', Unlimited: 'Não mais limitadas' },
  moved: (name: string, from: string) => `${name} (antes: ${from})`,
  points: (name: string, from: number, to: number) => `${name}: ${from} → ${to} pontos`,
  pointsGroup: 'Pontos alterados',
  more: (count: number) => `…e mais ${count}`,
  postTitle: (format: string) => `A lista ${format} mudou`,
  decksTitle: 'Decks mostrados aqui nos últimos 90 dias que isto torna ilegais',
  deck: (shown: string, cards: string) => `Deck mostrado ${shown}: ${cards}`,
  offence: (copies: number, name: string, status: string) => `${copies}× ${name} (agora ${status})`,
};
