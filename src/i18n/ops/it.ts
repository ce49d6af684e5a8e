import type { OpsCatalogue } from './shape.js';

export const opsIt: OpsCatalogue = {
  whois: {
    button: (address) => `Titolare e abusi: ${address}`,
    range: 'Intervallo',
    network: 'Rete',
    country: 'Paese',
    registry: 'Registro',
    registrant: 'Titolare',
    registrar: 'Registrar',
    abuse: 'Contatto abusi',
    noAbuse: 'Il registro non indica alcun contatto abusi per questa rete.',
    reportLine: 'Pronto da inviare (al contatto abusi, in inglese):',
    registered: 'Registrato',
    changed: 'Ultima modifica',
    expires: 'Scade',
    status: 'Stato',
    nameServers: 'Name server',
    notRegistered: (query) => `Nessun registro ha una voce per ${query}.`,
    giveQuery: 'Indica un indirizzo IP, un dominio o un numero di AS, per esempio `8.8.8.8`, `example.com` o `AS13335`.',
    specialAddress: 'Questo indirizzo non è su internet pubblica: nessun registro lo conosce, e non viene mai inviato a uno.',
    asnTooLarge: 'I numeri di AS arrivano fino a 4294967295.',
    notAQuery: (reason) => `Non posso cercarlo nei registri: ${reason}.`,
    slowDown: (limit, duration) =>
      `Rallenta: i registri sono condivisi da tutti qui, e per ora hai fatto le tue ${limit} nuove domande. Riprova tra ${duration} (le risposte già ottenute restano gratuite).`,
  },
};
