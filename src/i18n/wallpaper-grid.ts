/**
 * A listing's grid (`/wallpaper`'s **Grid** button) and a card artwork's **Wallpapers in these
 * colours**, in every language (each catalogue's `wallpaperGrid`). Kept apart from the catalogues,
 * which are long enough.
 */
export const wallpaperGridEn = {
  gridButton: 'Grid',
  range: (from: string, to: string, total: string) => `${from}–${to} of ${total}`,
  pickMenu: 'Open one of these…',
  withheld: (count: number) => `${count} not shown in this channel (sketchy or NSFW)`,
  notYourGrid: 'Only the person who opened this grid can page through it. Press Grid under a listing to get your own.',
  gridExpired: 'These buttons expired after 10 minutes without use. Press Grid under a listing again.',
  coloursButton: 'Wallpapers in these colours',
  artUnreadable: 'Almanac could not read this artwork’s colours. Try another artwork of the card.',
};

type WallpaperGrid = typeof wallpaperGridEn;

export const wallpaperGridFr: WallpaperGrid = {
  gridButton: 'Grille',
  range: (from, to, total) => `${from}–${to} sur ${total}`,
  pickMenu: 'En ouvrir un…',
  withheld: (count) => `${count} non affiché${count === 1 ? '' : 's'} dans ce salon (sketchy ou NSFW)`,
  notYourGrid: 'Seule la personne qui a ouvert cette grille peut la parcourir. Appuyez sur Grille sous une liste pour avoir la vôtre.',
  gridExpired: 'Ces boutons ont expiré après 10 minutes sans utilisation. Appuyez de nouveau sur Grille sous une liste.',
  coloursButton: 'Fonds d’écran dans ces couleurs',
  artUnreadable: 'Almanac n’a pas pu lire les couleurs de cette illustration. Essayez une autre illustration de la carte.',
};

export const wallpaperGridDe: WallpaperGrid = {
  gridButton: 'Raster',
  range: (from, to, total) => `${from}–${to} von ${total}`,
  pickMenu: 'Eines davon öffnen…',
  withheld: (count) => `${count} in diesem Kanal nicht gezeigt (sketchy oder NSFW)`,
  notYourGrid: 'Nur wer dieses Raster geöffnet hat, kann darin blättern. Drücke Raster unter einer Liste, um dein eigenes zu bekommen.',
  gridExpired: 'Diese Schaltflächen sind nach 10 Minuten ohne Nutzung abgelaufen. Drücke erneut Raster unter einer Liste.',
  coloursButton: 'Hintergründe in diesen Farben',
  artUnreadable: 'Almanac konnte die Farben dieses Artworks nicht lesen. Versuche ein anderes Artwork der Karte.',
};

export const wallpaperGridIt: WallpaperGrid = {
  gridButton: 'Griglia',
  range: (from, to, total) => `${from}–${to} di ${total}`,
  pickMenu: 'Aprine uno…',
  withheld: (count) => `${count} non mostrat${count === 1 ? 'o' : 'i'} in questo canale (sketchy o NSFW)`,
  notYourGrid: 'Solo chi ha aperto questa griglia può sfogliarla. Premi Griglia sotto un elenco per averne una tua.',
  gridExpired: 'Questi pulsanti sono scaduti dopo 10 minuti di inattività. Premi di nuovo Griglia sotto un elenco.',
  coloursButton: 'Sfondi in questi colori',
  artUnreadable: 'Almanac non è riuscito a leggere i colori di questa illustrazione. Prova un’altra illustrazione della carta.',
};

export const wallpaperGridPtBR: WallpaperGrid = {
  gridButton: 'Grade',
  range: (from, to, total) => `${from}–${to} de ${total}`,
  pickMenu: 'Abrir um deles…',
  withheld: (count) => `${count} não mostrado${count === 1 ? '' : 's'} neste canal (sketchy ou NSFW)`,
  notYourGrid: 'Só quem abriu esta grade pode navegar por ela. Aperte Grade sob uma lista para ter a sua.',
  gridExpired: 'Esses botões expiraram após 10 minutos sem uso. Aperte Grade sob uma lista de novo.',
  coloursButton: 'Papéis de parede nestas cores',
  artUnreadable: 'O Almanac não conseguiu ler as cores desta arte. Tente outra arte da carta.',
};
