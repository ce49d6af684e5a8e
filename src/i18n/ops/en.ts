/**
 * The ops card's words in English (`/ip dig`, `/ip whois`, the registration button under `/ip lookup`): the
 * source of these keys, kept apart from en.ts by idea. Each other language's file is typed against it.
 */
export const opsEn = {
  dig: {
    status: 'Status',
    flags: 'Flags',
    resolver: 'Resolver',
    configured: 'the configured DNS servers',
    authentic: 'AD: validated with DNSSEC by the resolver',
    notAuthentic: 'no AD: not validated with DNSSEC',
    truncated: 'TC: the answer was cut short',
    transports: { udp: 'over UDP', tcp: 'over TCP (the UDP answer was truncated)', https: 'over HTTPS' },
    noRecords: (type: string) => `No ${type} records in the answer.`,
    hiddenPrivate: (count: number) => `${count} private or special-range ${count === 1 ? 'address is' : 'addresses are'} not shown.`,
    refresh: 'Refresh',
    unknownType: (types: string) => `I ask for these record types only: ${types}.`,
    specialAddress: 'That address is not on the public internet: its reverse name is never asked about.',
    notAName: (reason: string) => `That is not a name I can ask DNS about: ${reason}.`,
    unknownResolver: (names: string) => `Choose one of these resolvers: ${names}.`,
    noAnswer: (why: string) => `No answer: ${why}.`,
    forgotten: 'This answer is too old to refresh: run `/ip dig` again.',
  },
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
