/**
 * Genesys (Konami's points format): a card's points on `/card show`, and a deck's total and verdict
 * on `/deck show`, in every language (each catalogue's `genesys`). "Genesys" is the format's own
 * name, the same everywhere; numbers arrive formatted for the reader's locale.
 */
export const genesysEn = {
  label: 'Genesys',
  cardPoints: (points: string) => `${points} points`,
  total: (total: string, cap: string) => `${total} / ${cap} points`,
  overCap: (total: string, cap: string) => `${total} points, over the cap of ${cap}`,
  notAllowed: (name: string) => `${name}: Link and Pendulum monsters are not allowed`,
  noPoints: 'unknown (the Genesys points are not loaded yet)',
  pointedTitle: (total: string, cap: string) => `Genesys points (${total} / ${cap})`,
  pointed: (count: string, name: string, points: string) => `${count}× ${name}: ${points}`,
  pointedHeading: 'Points',
  offence: (copies: string, name: string, points: string) => `${copies}× ${name} (now ${points} points)`,
};

type Genesys = typeof genesysEn;

export const genesysFr: Genesys = {
  label: 'Genesys',
  cardPoints: (points: string) => `${points} points`,
  total: (total: string, cap: string) => `${total} / ${cap} points`,
  overCap: (total: string, cap: string) => `${total} points, au-delà du plafond de ${cap}`,
  notAllowed: (name: string) => `${name} : les monstres Lien et Pendule ne sont pas autorisés`,
  noPoints: 'inconnu (les points Genesys ne sont pas encore chargés)',
  pointedTitle: (total: string, cap: string) => `Points Genesys (${total} / ${cap})`,
  pointed: (count: string, name: string, points: string) => `${count}× ${name} : ${points}`,
  pointedHeading: 'Points',
  offence: (copies: string, name: string, points: string) => `${copies}× ${name} (désormais ${points} points)`,
};

export const genesysDe: Genesys = {
  label: 'Genesys',
  cardPoints: (points: string) => `${points} Punkte`,
  total: (total: string, cap: string) => `${total} / ${cap} Punkte`,
  overCap: (total: string, cap: string) => `${total} Punkte, über der Obergrenze von ${cap}`,
  notAllowed: (name: string) => `${name}: Link- und Pendelmonster sind nicht erlaubt`,
  noPoints: 'unbekannt (die Genesys-Punkte sind noch nicht geladen)',
  pointedTitle: (total: string, cap: string) => `Genesys-Punkte (${total} / ${cap})`,
  pointed: (count: string, name: string, points: string) => `${count}× ${name}: ${points}`,
  pointedHeading: 'Punkte',
  offence: (copies: string, name: string, points: string) => `${copies}× ${name} (jetzt ${points} Punkte)`,
};

export const genesysIt: Genesys = {
  label: 'Genesys',
  cardPoints: (points: string) => `${points} punti`,
  total: (total: string, cap: string) => `${total} / ${cap} punti`,
  overCap: (total: string, cap: string) => `${total} punti, oltre il limite di ${cap}`,
  notAllowed: (name: string) => `${name}: i mostri Link e Pendulum non sono ammessi`,
  noPoints: 'sconosciuto (i punti Genesys non sono ancora caricati)',
  pointedTitle: (total: string, cap: string) => `Punti Genesys (${total} / ${cap})`,
  pointed: (count: string, name: string, points: string) => `${count}× ${name}: ${points}`,
  pointedHeading: 'Punti',
  offence: (copies: string, name: string, points: string) => `${copies}× ${name} (ora ${points} punti)`,
};

export const genesysPtBR: Genesys = {
  label: 'Genesys',
  cardPoints: (points: string) => `${points} pontos`,
  total: (total: string, cap: string) => `${total} / ${cap} pontos`,
  overCap: (total: string, cap: string) => `${total} pontos, acima do limite de ${cap}`,
  notAllowed: (name: string) => `${name}: monstros Link e Pêndulo não são permitidos`,
  noPoints: 'desconhecido (os pontos Genesys ainda não foram carregados)',
  pointedTitle: (total: string, cap: string) => `Pontos Genesys (${total} / ${cap})`,
  pointed: (count: string, name: string, points: string) => `${count}× ${name}: ${points}`,
  pointedHeading: 'Pontos',
  offence: (copies: string, name: string, points: string) => `${copies}× ${name} (agora ${points} pontos)`,
};
