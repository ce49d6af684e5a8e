import { de } from './de.js';
import { fr } from './fr.js';
import { it } from './it.js';
import { ptBR } from './pt-br.js';

/**
 * Command, subcommand, option and choice names and descriptions in fr, de, it and pt-BR, keyed by
 * their English path: `card show name` for an option, `card show language=fr` for a choice (by its
 * value). Each entry is `[name, description]`; choices and message commands have a name only.
 * English stays in each command's builder; `localizeCommand` copies these into Discord's
 * `name_localizations` / `description_localizations` at registration.
 */
export const COMMAND_LOCALES = ['fr', 'de', 'it', 'pt-BR'] as const;
type CommandLocale = (typeof COMMAND_LOCALES)[number];

type Entry = readonly [name: string, description?: string];
type CommandLocalization = Readonly<Record<CommandLocale, Entry>>;

const sameEverywhere = (name: string): CommandLocalization => ({ fr: [name], de: [name], it: [name], 'pt-BR': [name] });

const PUBLIC_LOOKUP: CommandLocalization = {
  fr: ['public', 'Publier dans le salon (par défaut : vous seul le voyez)'],
  de: ['öffentlich', 'Im Kanal posten (Standard: nur du siehst es)'],
  it: ['pubblico', 'Pubblica nel canale (predefinito: lo vedi solo tu)'],
  'pt-BR': ['público', 'Postar no canal (padrão: só você vê)'],
};

const PUBLIC_BY_DEFAULT: CommandLocalization = {
  fr: ['public', 'Publier dans le salon (par défaut : oui)'],
  de: ['öffentlich', 'Im Kanal posten (Standard: ja)'],
  it: ['pubblico', 'Pubblica nel canale (predefinito: sì)'],
  'pt-BR': ['público', 'Postar no canal (padrão: sim)'],
};

const CATEGORY: CommandLocalization = {
  fr: ['catégorie', 'Général, anime, personnes, ou une combinaison (par défaut : toutes)'],
  de: ['kategorie', 'Allgemein, Anime, Personen oder eine Kombination (Standard: alle)'],
  it: ['categoria', 'Generale, anime, persone, o una combinazione (predefinito: tutte)'],
  'pt-BR': ['categoria', 'Geral, anime, pessoas ou uma combinação (padrão: todas)'],
};

const CATEGORY_CHOICES: Readonly<Record<string, CommandLocalization>> = {
  all: { fr: ['Général, anime et personnes (toutes)'], de: ['Allgemein, Anime und Personen (alle)'], it: ['Generale, anime e persone (tutte)'], 'pt-BR': ['Geral, anime e pessoas (todas)'] },
  general: { fr: ['Général'], de: ['Allgemein'], it: ['Generale'], 'pt-BR': ['Geral'] },
  anime: sameEverywhere('Anime'),
  people: { fr: ['Personnes'], de: ['Personen'], it: ['Persone'], 'pt-BR': ['Pessoas'] },
  'general+anime': { fr: ['Général et anime'], de: ['Allgemein und Anime'], it: ['Generale e anime'], 'pt-BR': ['Geral e anime'] },
  'general+people': { fr: ['Général et personnes'], de: ['Allgemein und Personen'], it: ['Generale e persone'], 'pt-BR': ['Geral e pessoas'] },
  'anime+people': { fr: ['Anime et personnes'], de: ['Anime und Personen'], it: ['Anime e persone'], 'pt-BR': ['Anime e pessoas'] },
};

function choicesOf(path: string, choices: Readonly<Record<string, CommandLocalization>>): Record<string, CommandLocalization> {
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

const FORMAT_CHOICES: Readonly<Record<string, CommandLocalization>> = {
  tcg: sameEverywhere('TCG'),
  ocg: sameEverywhere('OCG'),
  goat: sameEverywhere('GOAT'),
  masterduel: sameEverywhere('Master Duel'),
  speedduel: sameEverywhere('Speed Duel'),
  duellinks: sameEverywhere('Duel Links'),
};

/** The filters `/card search` and `/card random` share, under `path`. */
function filterOptions(path: string): Record<string, CommandLocalization> {
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

const LANGUAGE_CHOICES: Readonly<Record<string, CommandLocalization>> = {
  en: { fr: ['Anglais'], de: ['Englisch'], it: ['Inglese'], 'pt-BR': ['Inglês'] },
  fr: { fr: ['Français'], de: ['Französisch'], it: ['Francese'], 'pt-BR': ['Francês'] },
  de: { fr: ['Allemand'], de: ['Deutsch'], it: ['Tedesco'], 'pt-BR': ['Alemão'] },
  it: { fr: ['Italien'], de: ['Italienisch'], it: ['Italiano'], 'pt-BR': ['Italiano'] },
  pt: { fr: ['Portugais'], de: ['Portugiesisch'], it: ['Portoghese'], 'pt-BR': ['Português'] },
};

const SORTING_CHOICES: Readonly<Record<string, CommandLocalization>> = {
  relevance: { fr: ['pertinence'], de: ['relevanz'], it: ['pertinenza'], 'pt-BR': ['relevância'] },
  date_added: { fr: ['date d’ajout'], de: ['hinzugefügt am'], it: ['data di aggiunta'], 'pt-BR': ['data de envio'] },
  views: { fr: ['vues'], de: ['aufrufe'], it: ['visualizzazioni'], 'pt-BR': ['visualizações'] },
  favorites: { fr: ['favoris'], de: ['favoriten'], it: ['preferiti'], 'pt-BR': ['favoritos'] },
  toplist: { fr: ['classement'], de: ['bestenliste'], it: ['classifica'], 'pt-BR': ['ranking'] },
  random: { fr: ['aléatoire'], de: ['zufällig'], it: ['casuale'], 'pt-BR': ['aleatório'] },
};

/** The toplist periods as the search result says them (`topRanges` in each catalogue). */
const TOPLIST_CHOICES: Readonly<Record<string, CommandLocalization>> = Object.fromEntries(
  (['1d', '3d', '1w', '1M', '3M', '6M', '1y'] as const).map((range) => [
    range,
    { fr: [fr.wallpaper.topRanges[range]], de: [de.wallpaper.topRanges[range]], it: [it.wallpaper.topRanges[range]], 'pt-BR': [ptBR.wallpaper.topRanges[range]] },
  ]),
);

const RATIO_CHOICES: Readonly<Record<string, CommandLocalization>> = {
  '16x9': sameEverywhere('16x9'),
  '16x10': sameEverywhere('16x10'),
  '21x9': sameEverywhere('21x9'),
  '9x16': sameEverywhere('9x16'),
  '4x3': sameEverywhere('4x3'),
  landscape: { fr: ['paysage'], de: ['querformat'], it: ['orizzontale'], 'pt-BR': ['paisagem'] },
  portrait: { fr: ['portrait'], de: ['hochformat'], it: ['verticale'], 'pt-BR': ['retrato'] },
};

export const COMMAND_LOCALIZATIONS: Readonly<Record<string, CommandLocalization>> = {
  ip: {
    fr: ['ip', 'Où se trouve une adresse IP, son réseau et son heure locale'],
    de: ['ip', 'Wo eine IP-Adresse liegt, ihr Netzwerk und ihre Ortszeit'],
    it: ['ip', 'Dove si trova un indirizzo IP, la sua rete e la sua ora locale'],
    'pt-BR': ['ip', 'Onde fica um endereço IP, sua rede e seu horário local'],
  },
  'ip lookup': {
    fr: ['localiser', 'Position, réseau et fuseau horaire de 10 adresses IP, noms d’hôte ou URL au plus'],
    de: ['nachschlagen', 'Ort, Netzwerk und Zeitzone von bis zu 10 IP-Adressen, Hostnamen oder URLs'],
    it: ['cerca', 'Posizione, rete e fuso orario di un massimo di 10 indirizzi IP, nomi host o URL'],
    'pt-BR': ['consultar', 'Localização, rede e fuso horário de até 10 endereços IP, nomes de host ou URLs'],
  },
  'ip lookup addresses': {
    fr: ['adresses', '1 à 10 adresses, noms d’hôte ou URL, séparés par des virgules ou des espaces'],
    de: ['adressen', '1–10 Adressen, Hostnamen oder URLs, getrennt durch Kommas oder Leerzeichen'],
    it: ['indirizzi', '1–10 indirizzi, nomi host o URL, separati da virgole o spazi'],
    'pt-BR': ['endereços', '1 a 10 endereços, nomes de host ou URLs, separados por vírgulas ou espaços'],
  },
  'ip lookup public': PUBLIC_LOOKUP,
  'ip time': {
    fr: ['heure', 'L’heure locale et le décalage UTC à l’emplacement d’une adresse IP'],
    de: ['uhrzeit', 'Ortszeit und UTC-Versatz am Standort einer IP-Adresse'],
    it: ['ora', 'L’ora locale e lo scarto da UTC nella posizione di un indirizzo IP'],
    'pt-BR': ['hora', 'O horário local e o fuso UTC na localização de um endereço IP'],
  },
  'ip time address': {
    fr: ['adresse', 'Une adresse IPv4/IPv6, un nom d’hôte ou une URL'],
    de: ['adresse', 'Eine IPv4/IPv6-Adresse, ein Hostname oder eine URL'],
    it: ['indirizzo', 'Un indirizzo IPv4/IPv6, un nome host o un URL'],
    'pt-BR': ['endereço', 'Um endereço IPv4/IPv6, um nome de host ou uma URL'],
  },
  'ip time public': PUBLIC_BY_DEFAULT,
  'Locate IP addresses': {
    fr: ['Localiser les adresses IP'],
    de: ['IP-Adressen orten'],
    it: ['Localizza indirizzi IP'],
    'pt-BR': ['Localizar endereços IP'],
  },
  card: {
    fr: ['carte', 'Recherche de cartes Yu-Gi-Oh!'],
    de: ['karte', 'Yu-Gi-Oh!-Karten nachschlagen'],
    it: ['carta', 'Ricerca di carte Yu-Gi-Oh!'],
    'pt-BR': ['carta', 'Consulta de cartas de Yu-Gi-Oh!'],
  },
  deck: {
    fr: ['deck', 'Lire un deck Yu-Gi-Oh! partagé'],
    de: ['deck', 'Ein geteiltes Yu-Gi-Oh!-Deck lesen'],
    it: ['deck', 'Leggi un deck Yu-Gi-Oh! condiviso'],
    'pt-BR': ['deck', 'Ler um deck de Yu-Gi-Oh! compartilhado'],
  },
  'deck show': {
    fr: ['afficher', 'Un deck par sections, avec sa légalité par format et son prix'],
    de: ['zeigen', 'Ein Deck nach Abschnitten, mit Legalität je Format und Preis'],
    it: ['mostra', 'Un deck per sezioni, con legalità per formato e prezzo'],
    'pt-BR': ['mostrar', 'Um deck por seções, com legalidade por formato e preço'],
  },
  'deck show url': {
    fr: ['url', 'Le deck en URL ydke://'],
    de: ['url', 'Das Deck als ydke://-URL'],
    it: ['url', 'Il deck come URL ydke://'],
    'pt-BR': ['url', 'O deck como URL ydke://'],
  },
  'deck show file': {
    fr: ['fichier', 'Le deck en fichier .ydk'],
    de: ['datei', 'Das Deck als .ydk-Datei'],
    it: ['file', 'Il deck come file .ydk'],
    'pt-BR': ['arquivo', 'O deck como arquivo .ydk'],
  },
  'deck show public': PUBLIC_BY_DEFAULT,
  'Read deck': {
    fr: ['Lire le deck'],
    de: ['Deck lesen'],
    it: ['Leggi il deck'],
    'pt-BR': ['Ler deck'],
  },
  'card show': {
    fr: ['afficher', 'Une carte avec son texte, ses stats, son statut, son prix et son illustration'],
    de: ['zeigen', 'Eine Karte mit Text, Werten, Verbotsstatus, Preis und Bild'],
    it: ['mostra', 'Una carta con testo, statistiche, stato nella lista, prezzo e immagine'],
    'pt-BR': ['mostrar', 'Uma carta com texto, atributos, status na lista, preço e arte'],
  },
  'card show name': {
    fr: ['nom', 'Nom ou code de la carte'],
    de: ['name', 'Kartenname oder Kartennummer'],
    it: ['nome', 'Nome o codice della carta'],
    'pt-BR': ['nome', 'Nome ou senha da carta'],
  },
  'card show language': {
    fr: ['langue', 'Langue du texte de la carte (par défaut : la vôtre, si disponible)'],
    de: ['sprache', 'Sprache des Kartentexts (Standard: deine, falls verfügbar)'],
    it: ['lingua', 'Lingua del testo della carta (predefinita: la tua, se disponibile)'],
    'pt-BR': ['idioma', 'Idioma do texto da carta (padrão: o seu, quando disponível)'],
  },
  ...choicesOf('card show language', LANGUAGE_CHOICES),
  'card search': {
    fr: ['rechercher', 'Jusqu’à 25 cartes dont le nom correspond, pour en choisir une'],
    de: ['suchen', 'Bis zu 25 Karten mit passendem Namen, zur Auswahl'],
    it: ['cerca', 'Fino a 25 carte con il nome corrispondente, per sceglierne una'],
    'pt-BR': ['buscar', 'Até 25 cartas com nome correspondente, para escolher uma'],
  },
  'card search query': {
    fr: ['mots', 'Mots du nom de la carte (facultatif avec un filtre)'],
    de: ['suchbegriff', 'Wörter des Kartennamens (mit einem Filter optional)'],
    it: ['testo', 'Parole del nome della carta (facoltative con un filtro)'],
    'pt-BR': ['termos', 'Palavras do nome da carta (opcional com um filtro)'],
  },
  ...filterOptions('card search'),
  'card price': {
    fr: ['prix', 'Les prix d’une carte : par vendeur, et chaque édition, la moins chère d’abord'],
    de: ['preis', 'Die Preise einer Karte: je Händler und jede Ausgabe, die günstigste zuerst'],
    it: ['prezzo', 'I prezzi di una carta: per venditore, e ogni edizione, prima la più economica'],
    'pt-BR': ['preço', 'Os preços de uma carta: por loja, e cada edição, a mais barata primeiro'],
  },
  'card price name': {
    fr: ['nom', 'Nom ou code de la carte'],
    de: ['name', 'Kartenname oder Kartennummer'],
    it: ['nome', 'Nome o codice della carta'],
    'pt-BR': ['nome', 'Nome ou senha da carta'],
  },
  'card art': {
    fr: ['illustration', 'Toutes les illustrations d’une carte'],
    de: ['artwork', 'Alle Artworks einer Karte'],
    it: ['illustrazione', 'Tutte le illustrazioni di una carta'],
    'pt-BR': ['arte', 'Todas as artes de uma carta'],
  },
  'card art name': {
    fr: ['nom', 'Nom ou code de la carte'],
    de: ['name', 'Kartenname oder Kartennummer'],
    it: ['nome', 'Nome o codice della carta'],
    'pt-BR': ['nome', 'Nome ou senha da carta'],
  },
  'card random': {
    fr: ['aléatoire', 'Une carte au hasard, du genre que donnent les filtres'],
    de: ['zufall', 'Eine zufällige Karte, von der Art, die die Filter angeben'],
    it: ['casuale', 'Una carta a caso, del tipo indicato dai filtri'],
    'pt-BR': ['aleatória', 'Uma carta aleatória, do tipo que os filtros indicam'],
  },
  ...filterOptions('card random'),
  'card set': {
    fr: ['extension', 'Une extension : date de sortie, taille, image, et ses cartes avec numéros et raretés'],
    de: ['set', 'Ein Set: Erscheinungsdatum, Umfang, Bild und seine Karten mit Nummern und Seltenheiten'],
    it: ['set', 'Un set: data di uscita, dimensione, immagine e le sue carte con numeri e rarità'],
    'pt-BR': ['coleção', 'Uma coleção: lançamento, tamanho, imagem e suas cartas com números e raridades'],
  },
  'card set name': {
    fr: ['nom', 'Nom ou code de l’extension, par ex. La Légende du Dragon Blanc aux Yeux Bleus ou LOB'],
    de: ['name', 'Set-Name oder -Code, z. B. Legend of Blue Eyes White Dragon oder LOB'],
    it: ['nome', 'Nome o codice del set, ad es. Legend of Blue Eyes White Dragon o LOB'],
    'pt-BR': ['nome', 'Nome ou código da coleção, ex.: Legend of Blue Eyes White Dragon ou LOB'],
  },
  status: {
    fr: ['état', 'La santé d’Almanac : disponibilité, latence et état de chaque service amont'],
    de: ['status', 'Almanacs Zustand: Laufzeit, Latenz und Zustand jedes Upstream-Dienstes'],
    it: ['stato', 'Lo stato di Almanac: attività, latenza e stato di ogni servizio esterno'],
    'pt-BR': ['status', 'A saúde do Almanac: tempo ativo, latência e estado de cada serviço externo'],
  },
  wallpaper: {
    fr: ['fond-d-écran', 'Rechercher, afficher et choisir des fonds d’écran sur Wallhaven'],
    de: ['hintergrundbild', 'Hintergrundbilder von Wallhaven suchen, zeigen und auswählen'],
    it: ['sfondo', 'Cerca, mostra e scegli sfondi da Wallhaven'],
    'pt-BR': ['papel-de-parede', 'Buscar, mostrar e escolher papéis de parede do Wallhaven'],
  },
  'wallpaper search': {
    fr: ['rechercher', 'Chercher sur Wallhaven et parcourir les résultats un fond d’écran à la fois'],
    de: ['suchen', 'Auf Wallhaven suchen und die Treffer Bild für Bild durchblättern'],
    it: ['cerca', 'Cerca su Wallhaven e sfoglia i risultati uno sfondo alla volta'],
    'pt-BR': ['buscar', 'Buscar no Wallhaven e ver os resultados um papel de parede por vez'],
  },
  'wallpaper search query': {
    fr: ['requête', 'Tags ou mots, par ex. « mountains -snow » ou « @username »'],
    de: ['suchbegriff', 'Tags oder Wörter, z. B. „mountains -snow“ oder „@username“'],
    it: ['testo', 'Tag o parole, ad es. "mountains -snow" o "@username"'],
    'pt-BR': ['termos', 'Tags ou palavras, ex.: "mountains -snow" ou "@username"'],
  },
  'wallpaper search category': CATEGORY,
  ...choicesOf('wallpaper search category', CATEGORY_CHOICES),
  'wallpaper search purity': {
    fr: ['pureté', 'sfw (par défaut) ; sketchy et nsfw seulement dans les salons soumis à une limite d’âge'],
    de: ['reinheit', 'sfw (Standard); sketchy und nsfw nur in altersbeschränkten Kanälen'],
    it: ['purezza', 'sfw (predefinito); sketchy e nsfw solo nei canali con limiti di età'],
    'pt-BR': ['pureza', 'sfw (padrão); sketchy e nsfw só em canais com restrição de idade'],
  },
  'wallpaper search purity=sfw': sameEverywhere('sfw'),
  'wallpaper search purity=sketchy': sameEverywhere('sketchy'),
  'wallpaper search purity=nsfw': sameEverywhere('nsfw'),
  'wallpaper search resolution': {
    fr: ['résolution', 'Taille minimale, par ex. 1920x1080'],
    de: ['auflösung', 'Mindestgröße, z. B. 1920x1080'],
    it: ['risoluzione', 'Dimensione minima, ad es. 1920x1080'],
    'pt-BR': ['resolução', 'Tamanho mínimo, ex.: 1920x1080'],
  },
  'wallpaper search ratio': {
    fr: ['format', 'Format d’image'],
    de: ['seitenverhältnis', 'Seitenverhältnis'],
    it: ['proporzioni', 'Proporzioni dell’immagine'],
    'pt-BR': ['proporção', 'Proporção da imagem'],
  },
  ...choicesOf('wallpaper search ratio', RATIO_CHOICES),
  'wallpaper search sorting': {
    fr: ['tri', 'Ordre des résultats (par défaut : pertinence avec une requête, sinon les plus récents)'],
    de: ['sortierung', 'Reihenfolge der Treffer (Standard: Relevanz mit Suchbegriff, sonst die neuesten)'],
    it: ['ordinamento', 'Ordine dei risultati (predefinito: pertinenza con una ricerca, altrimenti i più recenti)'],
    'pt-BR': ['ordenação', 'Ordem dos resultados (padrão: relevância com busca, senão os mais novos)'],
  },
  ...choicesOf('wallpaper search sorting', SORTING_CHOICES),
  'wallpaper search toplist': {
    fr: ['classement', 'Le classement d’une période (implique le tri toplist)'],
    de: ['bestenliste', 'Die Bestenliste eines Zeitraums (bedeutet Sortierung toplist)'],
    it: ['classifica', 'La classifica di un periodo (implica l’ordinamento toplist)'],
    'pt-BR': ['ranking', 'O ranking de um período (implica a ordenação toplist)'],
  },
  ...choicesOf('wallpaper search toplist', TOPLIST_CHOICES),
  'wallpaper search color': {
    fr: ['couleur', 'Une couleur dominante, parmi les 29 de la palette de Wallhaven'],
    de: ['farbe', 'Eine Hauptfarbe aus der Palette von Wallhaven (29 Farben)'],
    it: ['colore', 'Un colore principale, dalla tavolozza di 29 di Wallhaven'],
    'pt-BR': ['cor', 'Uma cor principal, da paleta de 29 cores do Wallhaven'],
  },
  'wallpaper show': {
    fr: ['afficher', 'Les détails d’un fond d’écran : auteur, tags et image complète'],
    de: ['zeigen', 'Details eines Hintergrundbilds: Uploader, Tags und das ganze Bild'],
    it: ['mostra', 'I dettagli di uno sfondo: autore, tag e immagine completa'],
    'pt-BR': ['mostrar', 'Os detalhes de um papel de parede: autor, tags e a imagem completa'],
  },
  'wallpaper show id': {
    fr: ['id', 'Identifiant (par ex. 6dk8yq) ou son lien wallhaven.cc/w/… ou whvn.cc/…'],
    de: ['id', 'ID des Bilds (z. B. 6dk8yq) oder sein Link wallhaven.cc/w/… oder whvn.cc/…'],
    it: ['id', 'ID dello sfondo (ad es. 6dk8yq) o il suo link wallhaven.cc/w/… o whvn.cc/…'],
    'pt-BR': ['id', 'ID do papel de parede (ex.: 6dk8yq) ou seu link wallhaven.cc/w/… ou whvn.cc/…'],
  },
  'wallpaper random': {
    fr: ['aléatoire', 'Un fond d’écran SFW au hasard'],
    de: ['zufall', 'Ein zufälliges SFW-Hintergrundbild'],
    it: ['casuale', 'Uno sfondo SFW a caso'],
    'pt-BR': ['aleatório', 'Um papel de parede SFW aleatório'],
  },
  'wallpaper random query': {
    fr: ['requête', 'Tags ou mots parmi lesquels choisir'],
    de: ['suchbegriff', 'Tags oder Wörter, aus denen gewählt wird'],
    it: ['testo', 'Tag o parole tra cui scegliere'],
    'pt-BR': ['termos', 'Tags ou palavras para escolher'],
  },
  'wallpaper collections': {
    fr: ['collections', 'Les collections publiques d’un utilisateur de Wallhaven ; ouvrez-en une et parcourez-la'],
    de: ['sammlungen', 'Die öffentlichen Sammlungen eines Wallhaven-Nutzers; eine öffnen und durchblättern'],
    it: ['collezioni', 'Le collezioni pubbliche di un utente di Wallhaven; aprine una e sfogliala'],
    'pt-BR': ['coleções', 'As coleções públicas de um usuário do Wallhaven; abra uma e navegue por ela'],
  },
  'wallpaper collections user': {
    fr: ['utilisateur', 'Son nom d’utilisateur Wallhaven, comme dans wallhaven.cc/user/…'],
    de: ['nutzer', 'Der Wallhaven-Benutzername, wie in wallhaven.cc/user/…'],
    it: ['utente', 'Il nome utente Wallhaven, come in wallhaven.cc/user/…'],
    'pt-BR': ['usuário', 'O nome de usuário no Wallhaven, como em wallhaven.cc/user/…'],
  },
  'wallpaper random category': CATEGORY,
  ...choicesOf('wallpaper random category', CATEGORY_CHOICES),
};
