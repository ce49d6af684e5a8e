import { de } from './de.js';
import { fr } from './fr.js';
import { it } from './it.js';
import { ptBR } from './pt-br.js';

/**
 * The pieces of command localization that several commands share (the `public` option, categories,
 * card filters) and the choice lists, in fr, de, it and pt-BR. See `COMMAND_LOCALIZATIONS`.
 */
export const COMMAND_LOCALES = ['fr', 'de', 'it', 'pt-BR'] as const;
export type CommandLocale = (typeof COMMAND_LOCALES)[number];

type Entry = readonly [name: string, description?: string];
export type CommandLocalization = Readonly<Record<CommandLocale, Entry>>;

export const sameEverywhere = (name: string): CommandLocalization => ({ fr: [name], de: [name], it: [name], 'pt-BR': [name] });

export const PUBLIC_LOOKUP: CommandLocalization = {
  fr: ['public', 'Publier dans le salon (par défaut : vous seul le voyez)'],
  de: ['öffentlich', 'Im Kanal posten (Standard: nur du siehst es)'],
  it: ['pubblico', 'Pubblica nel canale (predefinito: lo vedi solo tu)'],
  'pt-BR': ['público', 'Postar no canal (padrão: só você vê)'],
};

export const PUBLIC_BY_DEFAULT: CommandLocalization = {
  fr: ['public', 'Publier dans le salon (par défaut : oui)'],
  de: ['öffentlich', 'Im Kanal posten (Standard: ja)'],
  it: ['pubblico', 'Pubblica nel canale (predefinito: sì)'],
  'pt-BR': ['público', 'Postar no canal (padrão: sim)'],
};

export const CATEGORY: CommandLocalization = {
  fr: ['catégorie', 'Général, anime, personnes, ou une combinaison (par défaut : toutes)'],
  de: ['kategorie', 'Allgemein, Anime, Personen oder eine Kombination (Standard: alle)'],
  it: ['categoria', 'Generale, anime, persone, o una combinazione (predefinito: tutte)'],
  'pt-BR': ['categoria', 'Geral, anime, pessoas ou uma combinação (padrão: todas)'],
};

export const CATEGORY_CHOICES: Readonly<Record<string, CommandLocalization>> = {
  all: { fr: ['Général, anime et personnes (toutes)'], de: ['Allgemein, Anime und Personen (alle)'], it: ['Generale, anime e persone (tutte)'], 'pt-BR': ['Geral, anime e pessoas (todas)'] },
  general: { fr: ['Général'], de: ['Allgemein'], it: ['Generale'], 'pt-BR': ['Geral'] },
  anime: sameEverywhere('Anime'),
  people: { fr: ['Personnes'], de: ['Personen'], it: ['Persone'], 'pt-BR': ['Pessoas'] },
  'general+anime': { fr: ['Général et anime'], de: ['Allgemein und Anime'], it: ['Generale e anime'], 'pt-BR': ['Geral e anime'] },
  'general+people': { fr: ['Général et personnes'], de: ['Allgemein und Personen'], it: ['Generale e persone'], 'pt-BR': ['Geral e pessoas'] },
  'anime+people': { fr: ['Anime et personnes'], de: ['Anime und Personen'], it: ['Anime e persone'], 'pt-BR': ['Anime e pessoas'] },
};

export function choicesOf(path: string, choices: Readonly<Record<string, CommandLocalization>>): Record<string, CommandLocalization> {
  return Object.fromEntries(Object.entries(choices).map(([value, entry]) => [`${path}=${value}`, entry]));
}

const ATTRIBUTE_CHOICES: Readonly<Record<string, CommandLocalization>> = {
  DARK: { fr: ['TÉNÈBRES'], de: ['FINSTERNIS'], it: ['OSCURITÀ'], 'pt-BR': ['TREVAS'] },
  DIVINE: { fr: ['DIVIN'], de: ['GÖTTLICH'], it: ['DIVINO'], 'pt-BR': ['DIVINO'] },
  EARTH: { fr: ['TERRE'], de: ['ERDE'], it: ['TERRA'], 'pt-BR': ['TERRA'] },
  FIRE: { fr: ['FEU'], de: ['FEUER'], it: ['FUOCO'], 'pt-BR': ['FOGO'] },
  LIGHT: { fr: ['LUMIÈRE'], de: ['LICHT'], it: ['LUCE'], 'pt-BR': ['LUZ'] },
  WATER: { fr: ['EAU'], de: ['WASSER'], it: ['ACQUA'], 'pt-BR': ['ÁGUA'] },
  WIND: { fr: ['VENT'], de: ['WIND'], it: ['VENTO'], 'pt-BR': ['VENTO'] },
};

const CARD_TYPE_CHOICES: Readonly<Record<string, CommandLocalization>> = {
  monster: { fr: ['Monstre'], de: ['Monster'], it: ['Mostro'], 'pt-BR': ['Monstro'] },
  normal: { fr: ['Monstre Normal'], de: ['Normales Monster'], it: ['Mostro Normale'], 'pt-BR': ['Monstro Normal'] },
  effect: { fr: ['Monstre à Effet'], de: ['Effektmonster'], it: ['Mostro con Effetto'], 'pt-BR': ['Monstro de Efeito'] },
  ritual: { fr: ['Monstre Rituel'], de: ['Ritualmonster'], it: ['Mostro Rituale'], 'pt-BR': ['Monstro de Ritual'] },
  fusion: { fr: ['Monstre Fusion'], de: ['Fusionsmonster'], it: ['Mostro Fusione'], 'pt-BR': ['Monstro de Fusão'] },
  synchro: { fr: ['Monstre Synchro'], de: ['Synchromonster'], it: ['Mostro Synchro'], 'pt-BR': ['Monstro Sincro'] },
  xyz: { fr: ['Monstre Xyz'], de: ['Xyz-Monster'], it: ['Mostro Xyz'], 'pt-BR': ['Monstro Xyz'] },
  link: { fr: ['Monstre Lien'], de: ['Linkmonster'], it: ['Mostro Link'], 'pt-BR': ['Monstro Link'] },
  pendulum: { fr: ['Monstre Pendule'], de: ['Pendelmonster'], it: ['Mostro Pendulum'], 'pt-BR': ['Monstro Pêndulo'] },
  tuner: { fr: ['Monstre Syntoniseur'], de: ['Empfängermonster'], it: ['Mostro Tuner'], 'pt-BR': ['Monstro Regulador'] },
  spell: { fr: ['Magie'], de: ['Zauber'], it: ['Magia'], 'pt-BR': ['Magia'] },
  trap: { fr: ['Piège'], de: ['Falle'], it: ['Trappola'], 'pt-BR': ['Armadilha'] },
  token: { fr: ['Jeton'], de: ['Spielmarke'], it: ['Segna Mostro'], 'pt-BR': ['Ficha'] },
  skill: { fr: ['Compétence'], de: ['Fähigkeit'], it: ['Abilità'], 'pt-BR': ['Habilidade'] },
};

/** The formats with a ban list. */
const BANLIST_FORMAT_CHOICES: Readonly<Record<string, CommandLocalization>> = {
  tcg: sameEverywhere('TCG'),
  ocg: sameEverywhere('OCG'),
  goat: sameEverywhere('GOAT'),
  masterduel: sameEverywhere('Master Duel'),
};

/** The lists `/card banlist` and `/subscribe banlist` offer: the ban lists, and Genesys's points. */
export const BANLIST_CHOICES: Readonly<Record<string, CommandLocalization>> = {
  ...BANLIST_FORMAT_CHOICES,
  genesys: sameEverywhere('Genesys'),
};

const FORMAT_CHOICES: Readonly<Record<string, CommandLocalization>> = {
  ...BANLIST_FORMAT_CHOICES,
  speedduel: sameEverywhere('Speed Duel'),
  duellinks: sameEverywhere('Duel Links'),
};

/** The filters `/card search` and `/card random` share, under `path`. */
export function filterOptions(path: string): Record<string, CommandLocalization> {
  return {
    [`${path} type`]: {
      fr: ['type', 'Seulement les cartes de ce type'],
      de: ['typ', 'Nur Karten dieses Typs'],
      it: ['tipo', 'Solo carte di questo tipo'],
      'pt-BR': ['tipo', 'Só cartas deste tipo'],
    },
    ...choicesOf(`${path} type`, CARD_TYPE_CHOICES),
    [`${path} attribute`]: {
      fr: ['attribut', 'Seulement les monstres de cet Attribut'],
      de: ['attribut', 'Nur Monster dieses Attributs'],
      it: ['attributo', 'Solo mostri di questo Attributo'],
      'pt-BR': ['atributo', 'Só monstros deste Atributo'],
    },
    ...choicesOf(`${path} attribute`, ATTRIBUTE_CHOICES),
    [`${path} archetype`]: {
      fr: ['archétype', 'Seulement les cartes de cet archétype'],
      de: ['archetyp', 'Nur Karten dieses Archetyps'],
      it: ['archetipo', 'Solo carte di questo archetipo'],
      'pt-BR': ['arquétipo', 'Só cartas deste arquétipo'],
    },
    [`${path} level`]: {
      fr: ['niveau', 'Seulement les monstres de ce Niveau ou Rang'],
      de: ['stufe', 'Nur Monster dieser Stufe oder dieses Rangs'],
      it: ['livello', 'Solo mostri di questo Livello o Rango'],
      'pt-BR': ['nível', 'Só monstros deste Nível ou Classe'],
    },
    [`${path} format`]: {
      fr: ['format', 'Seulement les cartes autorisées dans ce format'],
      de: ['format', 'Nur Karten, die in diesem Format erlaubt sind'],
      it: ['formato', 'Solo carte ammesse in questo formato'],
      'pt-BR': ['formato', 'Só cartas permitidas neste formato'],
    },
    ...choicesOf(`${path} format`, FORMAT_CHOICES),
  };
}

export const LANGUAGE_CHOICES: Readonly<Record<string, CommandLocalization>> = {
  en: { fr: ['Anglais'], de: ['Englisch'], it: ['Inglese'], 'pt-BR': ['Inglês'] },
  fr: { fr: ['Français'], de: ['Französisch'], it: ['Francese'], 'pt-BR': ['Francês'] },
  de: { fr: ['Allemand'], de: ['Deutsch'], it: ['Tedesco'], 'pt-BR': ['Alemão'] },
  it: { fr: ['Italien'], de: ['Italienisch'], it: ['Italiano'], 'pt-BR': ['Italiano'] },
  pt: { fr: ['Portugais'], de: ['Portugiesisch'], it: ['Portoghese'], 'pt-BR': ['Português'] },
};

export const SORTING_CHOICES: Readonly<Record<string, CommandLocalization>> = {
  relevance: { fr: ['pertinence'], de: ['relevanz'], it: ['pertinenza'], 'pt-BR': ['relevância'] },
  date_added: { fr: ['date d’ajout'], de: ['hinzugefügt am'], it: ['data di aggiunta'], 'pt-BR': ['data de envio'] },
  views: { fr: ['vues'], de: ['aufrufe'], it: ['visualizzazioni'], 'pt-BR': ['visualizações'] },
  favorites: { fr: ['favoris'], de: ['favoriten'], it: ['preferiti'], 'pt-BR': ['favoritos'] },
  toplist: { fr: ['classement'], de: ['bestenliste'], it: ['classifica'], 'pt-BR': ['ranking'] },
  random: { fr: ['aléatoire'], de: ['zufällig'], it: ['casuale'], 'pt-BR': ['aleatório'] },
};

/** The toplist periods as the search result says them (`topRanges` in each catalogue). */
export const TOPLIST_CHOICES: Readonly<Record<string, CommandLocalization>> = Object.fromEntries(
  (['1d', '3d', '1w', '1M', '3M', '6M', '1y'] as const).map((range) => [
    range,
    { fr: [fr.wallpaper.topRanges[range]], de: [de.wallpaper.topRanges[range]], it: [it.wallpaper.topRanges[range]], 'pt-BR': [ptBR.wallpaper.topRanges[range]] },
  ]),
);

export const RATIO_CHOICES: Readonly<Record<string, CommandLocalization>> = {
  '16x9': sameEverywhere('16x9'),
  '16x10': sameEverywhere('16x10'),
  '21x9': sameEverywhere('21x9'),
  '9x16': sameEverywhere('9x16'),
  '4x3': sameEverywhere('4x3'),
  landscape: { fr: ['paysage'], de: ['querformat'], it: ['orizzontale'], 'pt-BR': ['paisagem'] },
  portrait: { fr: ['portrait'], de: ['hochformat'], it: ['verticale'], 'pt-BR': ['retrato'] },
};
