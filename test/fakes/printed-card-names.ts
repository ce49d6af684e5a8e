import type { CardLanguage } from '../../src/cards/card.js';

/**
 * French, German, Italian and Portuguese names of well-known cards as printed, entered by hand from
 * memory (no language dump is reachable offline to check them against). The fake YGOPRODeck's
 * language dumps (card-translations.ts) use them for these cards instead of their generated
 * names, so a test or a benchmark can show that a name as players type it in their language finds
 * its card. A card missing for a language has no confidently known name there.
 */
export const PRINTED_CARD_NAMES: Readonly<Record<string, Readonly<Partial<Record<CardLanguage, string>>>>> = {
  'Dark Magician': { fr: 'Magicien Sombre', de: 'Dunkler Magier', it: 'Mago Nero', pt: 'Mago Negro' },
  'Blue-Eyes White Dragon': { fr: 'Dragon Blanc aux Yeux Bleus', de: 'Blauäugiger w. Drache', it: 'Drago Bianco Occhi Blu', pt: 'Dragão Branco de Olhos Azuis' },
  'Red-Eyes Black Dragon': { fr: 'Dragon Noir aux Yeux Rouges', de: 'Rotäugiger s. Drache', it: 'Drago Nero Occhi Rossi', pt: 'Dragão Negro de Olhos Vermelhos' },
  'Dark Magician Girl': { fr: 'Magicienne des Ténèbres', de: 'Dunkles Magier-Mädchen', it: 'Ragazza Maga Nera' },
  'Pot of Greed': { fr: 'Pot de Cupidité', de: 'Topf der Gier', it: "Vaso dell'Avidità", pt: 'Pote da Ganância' },
  'Mystical Space Typhoon': { fr: "Typhon d'Espace Mystique", de: 'Mystischer Raum-Taifun', it: 'Tifone Spaziale Mistico', pt: 'Tufão Espacial Místico' },
  'Mirror Force': { fr: 'Force de Miroir', de: 'Spiegelkraft', it: 'Forza Specchio', pt: 'Força Espelho' },
  Polymerization: { fr: 'Polymérisation', de: 'Polymerisation', it: 'Polimerizzazione', pt: 'Polimerização' },
  'Exodia the Forbidden One': { fr: "Exodia l'Interdit", de: 'Exodia, die Verbotene', it: 'Exodia il Proibito', pt: 'Exodia, o Proibido' },
  'Summoned Skull': { fr: 'Crâne Invoqué', de: 'Beschworener Totenkopf', it: 'Teschio Evocato', pt: 'Caveira Invocada' },
  'Infinite Impermanence': { fr: 'Impermanence Infinie', de: 'Unendliche Vergänglichkeit', it: 'Impermanenza Infinita', pt: 'Impermanência Infinita' },
  'Called by the Grave': { fr: 'Appelé par la Tombe', de: 'Vom Grab gerufen', it: 'Chiamato dalla Tomba', pt: 'Chamado pelo Túmulo' },
  'Stardust Dragon': { fr: "Dragon Poussière d'Étoile", de: 'Sternenstaubdrache', it: 'Drago Polvere di Stelle', pt: 'Dragão da Poeira Estelar' },
  'Elemental HERO Neos': { fr: 'HÉROS Élémentaire Néos', de: 'Elementar-HELD Neos', it: 'EROE Elementale Neos' },
  'Dark Hole': { fr: 'Trou Noir', de: 'Schwarzes Loch', it: 'Buco Nero', pt: 'Buraco Negro' },
  'Book of Moon': { fr: 'Livre de la Lune', de: 'Buch des Mondes', it: 'Libro della Luna', pt: 'Livro da Lua' },
  'Time Wizard': { fr: 'Magicien du Temps', de: 'Zeitzauberer', it: 'Mago del Tempo', pt: 'Mago do Tempo' },
  'Call of the Haunted': { fr: "L'Appel de l'Être Hanté", de: 'Ruf der Gejagten', it: 'Richiamo del Posseduto' },
  'Solemn Judgment': { fr: 'Jugement Solennel', de: 'Feierliches Urteil', it: 'Giudizio Solenne', pt: 'Julgamento Solene' },
  'Swords of Revealing Light': { fr: 'Épées de Lumière Révélatrice', de: 'Schwerter des offenbarenden Lichtes', it: 'Spade di Luce Rivelatrice', pt: 'Espadas da Luz Reveladora' },
  'Celtic Guardian': { fr: 'Gardien Celte', de: 'Keltischer Wächter', it: 'Guardiano Celtico', pt: 'Guardião Celta' },
  'Reinforcement of the Army': { fr: "Renfort de l'Armée", de: 'Verstärkung der Armee', it: "Rinforzi dell'Esercito", pt: 'Reforço do Exército' },
  'Effect Veiler': { fr: "Voileur d'Effet" },
  'Ash Blossom & Joyous Spring': { fr: 'Cendres de Floraison & Joyeux Printemps', de: 'Aschblüte & Freudiger Frühling' },
  'Black Luster Soldier': { fr: 'Soldat du Lustre Noir' },
  'Gaia The Fierce Knight': { fr: 'Gaïa le Chevalier Implacable' },
};
