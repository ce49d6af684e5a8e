import type { OpsCatalogue } from './shape.js';

export const opsFr: OpsCatalogue = {
  whois: {
    button: (address) => `Titulaire et abus : ${address}`,
    range: 'Plage',
    network: 'Réseau',
    country: 'Pays',
    registry: 'Registre',
    registrant: 'Titulaire',
    registrar: 'Bureau d’enregistrement',
    abuse: 'Contact abus',
    noAbuse: 'Le registre n’indique aucun contact abus pour ce réseau.',
    reportLine: 'Prêt à envoyer (au contact abus, en anglais) :',
    registered: 'Enregistré',
    changed: 'Dernière modification',
    expires: 'Expire',
    status: 'Statut',
    nameServers: 'Serveurs de noms',
    notRegistered: (query) => `Aucun registre n’a d’enregistrement pour ${query}.`,
    giveQuery: 'Donnez une adresse IP, un domaine ou un numéro d’AS, par exemple `8.8.8.8`, `example.com` ou `AS13335`.',
    specialAddress: 'Cette adresse n’est pas sur l’internet public : aucun registre ne la connaît, et elle ne leur est jamais envoyée.',
    asnTooLarge: 'Les numéros d’AS vont jusqu’à 4294967295.',
    notAQuery: (reason) => `Je ne peux pas chercher cela dans les registres : ${reason}.`,
    slowDown: (limit, duration) =>
      `Doucement : les registres sont partagés par tout le monde ici, et vous avez posé vos ${limit} nouvelles questions pour l’instant. Réessayez dans ${duration} (les réponses déjà obtenues restent gratuites).`,
  },
};
