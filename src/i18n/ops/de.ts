import type { OpsCatalogue } from './shape.js';

export const opsDe: OpsCatalogue = {
  whois: {
    button: (address) => `Inhaber & Missbrauch: ${address}`,
    range: 'Bereich',
    network: 'Netz',
    country: 'Land',
    registry: 'Registry',
    registrant: 'Inhaber',
    registrar: 'Registrar',
    abuse: 'Missbrauchskontakt',
    noAbuse: 'Die Registry nennt für dieses Netz keinen Missbrauchskontakt.',
    reportLine: 'Zum Senden bereit (an den Missbrauchskontakt, auf Englisch):',
    registered: 'Registriert',
    changed: 'Zuletzt geändert',
    expires: 'Läuft ab',
    status: 'Status',
    nameServers: 'Nameserver',
    notRegistered: (query) => `Keine Registry hat einen Eintrag zu ${query}.`,
    giveQuery: 'Gib eine IP-Adresse, eine Domain oder eine AS-Nummer an, zum Beispiel `8.8.8.8`, `example.com` oder `AS13335`.',
    specialAddress: 'Diese Adresse ist nicht im öffentlichen Internet: Keine Registry kennt sie, und sie wird nie an eine gesendet.',
    asnTooLarge: 'AS-Nummern reichen bis 4294967295.',
    notAQuery: (reason) => `Das kann ich in den Registries nicht nachschlagen: ${reason}.`,
    slowDown: (limit, duration) =>
      `Langsamer: Die Registries teilen sich alle hier, und du hast deine ${limit} neuen Anfragen vorerst gestellt. Versuch es in ${duration} wieder (schon geholte Antworten bleiben frei).`,
  },
};
