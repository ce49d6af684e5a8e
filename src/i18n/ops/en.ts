/**
 * The ops card's words in English (`/ip whois`, the registration button under `/ip lookup`): the
 * source of these keys, kept apart from en.ts by idea. Each other language's file is typed against it.
 */
export const opsEn = {
  whois: {
    button: (address: string) => `Owner & abuse: ${address}`,
    range: 'Range',
    network: 'Network',
    country: 'Country',
    registry: 'Registry',
    registrant: 'Registrant',
    registrar: 'Registrar',
    abuse: 'Abuse contact',
    noAbuse: 'The registry lists no abuse contact for this network.',
    reportLine: 'Ready to send (to the abuse contact, in English):',
    registered: 'Registered',
    changed: 'Last changed',
    expires: 'Expires',
    status: 'Status',
    nameServers: 'Name servers',
    notRegistered: (query: string) => `No registry has a record of ${query}.`,
    giveQuery: 'Give an IP address, a domain or an AS number, for example `8.8.8.8`, `example.com` or `AS13335`.',
    specialAddress: 'That address is not on the public internet: no registry has it, and it is never sent to one.',
    asnTooLarge: 'AS numbers go up to 4294967295.',
    notAQuery: (reason: string) => `That is not something I can look up in the registries: ${reason}.`,
    slowDown: (limit: number, duration: string) =>
      `Slow down: the registries are shared by everyone here, and you have asked your ${limit} new questions for now. Try again in ${duration} (answers already fetched stay free).`,
  },
};
