/**
 * Card names in French, German, Italian and Portuguese for the whole card pool, for benchmarks: no
 * real language dump is reachable offline. Cards in OFFICIAL_CARD_NAMES keep their printed names;
 * every other name is translated word by word from the 100 commonest words of card names (the rest,
 * mostly proper names like "Kuriboh" or "Shiranui", stay as they are, as they do in real
 * translations), so the generated names share real translations' vocabulary and compete with the
 * printed ones the way real names would. One card in thirty is left untranslated (see fakeLocalizedNames).
 */
import type { CardLanguage } from '../src/cards/card.js';
import type { LocalizedCardNames } from '../src/cards/localized-names.js';
import { fakeLocalizedNames, OFFICIAL_CARD_NAMES } from '../test/fakes/printed-card-names.js';

/** English word → [fr, de, it, pt]. */
const WORDS: Readonly<Record<string, readonly [string, string, string, string]>> = {
  the: ['le', 'der', 'il', 'o'],
  of: ['de', 'der', 'di', 'de'],
  and: ['et', 'und', 'e', 'e'],
  with: ['avec', 'mit', 'con', 'com'],
  in: ['dans', 'im', 'in', 'em'],
  to: ['à', 'zu', 'a', 'para'],
  dragon: ['Dragon', 'Drache', 'Drago', 'Dragão'],
  dark: ['Sombre', 'Dunkler', 'Oscuro', 'Sombrio'],
  knight: ['Chevalier', 'Ritter', 'Cavaliere', 'Cavaleiro'],
  knights: ['Chevaliers', 'Ritter', 'Cavalieri', 'Cavaleiros'],
  beast: ['Bête', 'Bestie', 'Bestia', 'Besta'],
  king: ['Roi', 'König', 'Re', 'Rei'],
  hero: ['HÉROS', 'HELD', 'EROE', 'HERÓI'],
  number: ['Numéro', 'Nummer', 'Numero', 'Número'],
  eyes: ['Yeux', 'Augen', 'Occhi', 'Olhos'],
  eye: ['Œil', 'Auge', 'Occhio', 'Olho'],
  world: ['Monde', 'Welt', 'Mondo', 'Mundo'],
  magician: ['Magicien', 'Magier', 'Mago', 'Mago'],
  warrior: ['Guerrier', 'Krieger', 'Guerriero', 'Guerreiro'],
  fire: ['Feu', 'Feuer', 'Fuoco', 'Fogo'],
  fusion: ['Fusion', 'Fusion', 'Fusione', 'Fusão'],
  red: ['Rouge', 'Rot', 'Rosso', 'Vermelho'],
  spirit: ['Esprit', 'Geist', 'Spirito', 'Espírito'],
  ancient: ['Ancien', 'Uralter', 'Antico', 'Antigo'],
  soul: ['Âme', 'Seele', 'Anima', 'Alma'],
  force: ['Force', 'Kraft', 'Forza', 'Força'],
  black: ['Noir', 'Schwarzer', 'Nero', 'Negro'],
  elemental: ['Élémentaire', 'Elementar', 'Elementale', 'Elemental'],
  light: ['Lumière', 'Licht', 'Luce', 'Luz'],
  phantom: ['Fantôme', 'Phantom', 'Fantasma', 'Fantasma'],
  white: ['Blanc', 'Weißer', 'Bianco', 'Branco'],
  abyss: ['Abysse', 'Abgrund', 'Abisso', 'Abismo'],
  archfiend: ['Archdémon', 'Erzunterweltler', 'Arcidemone', 'Arquidemônio'],
  chaos: ['Chaos', 'Chaos', 'Caos', 'Caos'],
  lord: ['Seigneur', 'Herrscher', 'Signore', 'Senhor'],
  sword: ['Épée', 'Schwert', 'Spada', 'Espada'],
  star: ['Étoile', 'Stern', 'Stella', 'Estrela'],
  barrier: ['Barrière', 'Barriere', 'Barriera', 'Barreira'],
  sky: ['Ciel', 'Himmel', 'Cielo', 'Céu'],
  ice: ['Glace', 'Eis', 'Ghiaccio', 'Gelo'],
  soldier: ['Soldat', 'Soldat', 'Soldato', 'Soldado'],
  magic: ['Magie', 'Magie', 'Magia', 'Magia'],
  magical: ['Magique', 'Magischer', 'Magico', 'Mágico'],
  mirror: ['Miroir', 'Spiegel', 'Specchio', 'Espelho'],
  flame: ['Flamme', 'Flamme', 'Fiamma', 'Chama'],
  master: ['Maître', 'Meister', 'Maestro', 'Mestre'],
  thunder: ['Tonnerre', 'Donner', 'Tuono', 'Trovão'],
  evil: ['Maléfique', 'Böser', 'Malvagio', 'Maligno'],
  wind: ['Vent', 'Wind', 'Vento', 'Vento'],
  crystal: ['Cristal', 'Kristall', 'Cristallo', 'Cristal'],
  blue: ['Bleu', 'Blauer', 'Blu', 'Azul'],
  fairy: ['Fée', 'Fee', 'Fata', 'Fada'],
  shadow: ['Ombre', 'Schatten', 'Ombra', 'Sombra'],
  ritual: ['Rituel', 'Ritual', 'Rituale', 'Ritual'],
  lady: ['Dame', 'Dame', 'Dama', 'Dama'],
  double: ['Double', 'Doppel', 'Doppio', 'Duplo'],
  queen: ['Reine', 'Königin', 'Regina', 'Rainha'],
  destruction: ['Destruction', 'Zerstörung', 'Distruzione', 'Destruição'],
  power: ['Pouvoir', 'Macht', 'Potere', 'Poder'],
  cannon: ['Canon', 'Kanone', 'Cannone', 'Canhão'],
  angel: ['Ange', 'Engel', 'Angelo', 'Anjo'],
  guardian: ['Gardien', 'Wächter', 'Guardiano', 'Guardião'],
  giant: ['Géant', 'Riese', 'Gigante', 'Gigante'],
  sea: ['Mer', 'Meer', 'Mare', 'Mar'],
  ghost: ['Fantôme', 'Geist', 'Spettro', 'Fantasma'],
  skull: ['Crâne', 'Totenkopf', 'Teschio', 'Caveira'],
  forest: ['Forêt', 'Wald', 'Foresta', 'Floresta'],
  twin: ['Jumeau', 'Zwilling', 'Gemello', 'Gêmeo'],
  time: ['Temps', 'Zeit', 'Tempo', 'Tempo'],
  noble: ['Noble', 'Edler', 'Nobile', 'Nobre'],
  battle: ['Bataille', 'Kampf', 'Battaglia', 'Batalha'],
  shield: ['Bouclier', 'Schild', 'Scudo', 'Escudo'],
  burning: ['Ardent', 'Brennender', 'Ardente', 'Ardente'],
  wing: ['Aile', 'Flügel', 'Ala', 'Asa'],
  gate: ['Porte', 'Tor', 'Cancello', 'Portão'],
  darkness: ['Ténèbres', 'Finsternis', 'Oscurità', 'Escuridão'],
  emperor: ['Empereur', 'Kaiser', 'Imperatore', 'Imperador'],
  iron: ['Fer', 'Eisen', 'Ferro', 'Ferro'],
  bird: ['Oiseau', 'Vogel', 'Uccello', 'Pássaro'],
  princess: ['Princesse', 'Prinzessin', 'Principessa', 'Princesa'],
  witch: ['Sorcière', 'Hexe', 'Strega', 'Bruxa'],
  storm: ['Tempête', 'Sturm', 'Tempesta', 'Tempestade'],
  fiend: ['Démon', 'Unterweltler', 'Demone', 'Demônio'],
  hole: ['Trou', 'Loch', 'Buco', 'Buraco'],
  snake: ['Serpent', 'Schlange', 'Serpente', 'Serpente'],
  attack: ['Attaque', 'Angriff', 'Attacco', 'Ataque'],
  nightmare: ['Cauchemar', 'Albtraum', 'Incubo', 'Pesadelo'],
  god: ['Dieu', 'Gott', 'Dio', 'Deus'],
  monster: ['Monstre', 'Monster', 'Mostro', 'Monstro'],
  trap: ['Piège', 'Falle', 'Trappola', 'Armadilha'],
  spell: ['Magie', 'Zauber', 'Magia', 'Magia'],
  card: ['Carte', 'Karte', 'Carta', 'Carta'],
  machine: ['Machine', 'Maschine', 'Macchina', 'Máquina'],
  great: ['Grand', 'Großer', 'Grande', 'Grande'],
  little: ['Petit', 'Kleiner', 'Piccolo', 'Pequeno'],
  holy: ['Sacré', 'Heiliger', 'Sacro', 'Sagrado'],
  sacred: ['Sacré', 'Heiliger', 'Sacro', 'Sagrado'],
  golden: ['Doré', 'Goldener', 'Dorato', 'Dourado'],
  moon: ['Lune', 'Mond', 'Luna', 'Lua'],
  sun: ['Soleil', 'Sonne', 'Sole', 'Sol'],
  call: ['Appel', 'Ruf', 'Richiamo', 'Chamado'],
  grave: ['Tombe', 'Grab', 'Tomba', 'Túmulo'],
  judgment: ['Jugement', 'Urteil', 'Giudizio', 'Julgamento'],
  pot: ['Pot', 'Topf', 'Vaso', 'Pote'],
  rose: ['Rose', 'Rose', 'Rosa', 'Rosa'],
  dimension: ['Dimension', 'Dimension', 'Dimensione', 'Dimensão'],
};

const LANGUAGE_COLUMN: Readonly<Record<CardLanguage, number>> = { fr: 0, de: 1, it: 2, pt: 3 };

/** The card's name in `language`: printed when known, else translated word by word. */
export function generatedTranslation(name: string, language: CardLanguage): string {
  const printed = OFFICIAL_CARD_NAMES[name]?.[language];
  if (printed !== undefined) return printed;
  const column = LANGUAGE_COLUMN[language];
  return name.replace(/[A-Za-z]+/g, (word) => {
    const translated = WORDS[word.toLowerCase()]?.[column];
    if (translated === undefined) return word;
    // Articles and prepositions stay lowercase; other words take the English word's capital.
    return /^[A-Z]/.test(word) && /^[a-zà]/.test(translated) && translated.length > 3 ? translated[0]!.toUpperCase() + translated.slice(1) : translated;
  });
}

/** Every card's generated name in each language, as the language databases will give them to the matcher. */
export function generatedLocalizedNames(cards: readonly { id: number; name: string }[]): LocalizedCardNames {
  return fakeLocalizedNames(cards, (card, language) => generatedTranslation(card.name, language));
}
