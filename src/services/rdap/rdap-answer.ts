import { z } from 'zod';
import type { RdapAutnum, RdapContact, RdapDomain, RdapEvents, RdapNetwork, RdapObject } from '../../ip/rdap.js';
import type { WhoisQuery } from '../../ip/whois-query.js';
import { UpstreamError } from '../../interaction/upstream-error.js';

/**
 * The parts of an RDAP answer (RFC 9083) Almanac reads. Registries differ in what they fill in, so
 * every member is optional and unknown ones are ignored; a value of the wrong type is dropped rather
 * than failing the whole answer.
 */
interface RawEntity {
  roles?: string[];
  vcardArray?: unknown;
  entities?: RawEntity[];
}

const text = z.string().max(2_000).optional().catch(undefined);
const rawEntity: z.ZodType<RawEntity> = z.lazy(() =>
  z.object({
    roles: z.array(z.string()).optional().catch(undefined),
    vcardArray: z.unknown(),
    entities: z.array(rawEntity).optional().catch(undefined),
  }),
);
const rawEvent = z.object({ eventAction: z.string(), eventDate: z.string() });
const rawCommon = {
  handle: text,
  name: text,
  country: text,
  entities: z.array(rawEntity).optional().catch(undefined),
  events: z.array(rawEvent.or(z.unknown())).optional().catch(undefined),
};
const rawNetwork = z.object({
  ...rawCommon,
  startAddress: z.string().max(64),
  endAddress: z.string().max(64),
  cidr0_cidrs: z
    .array(z.object({ v4prefix: text, v6prefix: text, length: z.number().int().optional().catch(undefined) }))
    .optional()
    .catch(undefined),
});
const rawAutnum = z.object({ ...rawCommon, startAutnum: z.number().int(), endAutnum: z.number().int().optional().catch(undefined) });
const rawDomain = z.object({
  ...rawCommon,
  ldhName: z.string().max(300),
  unicodeName: text,
  status: z.array(z.string()).optional().catch(undefined),
  nameservers: z.array(z.object({ ldhName: text })).optional().catch(undefined),
});

/** The registry's JSON for `query`, as the object shown; a body without the members its kind needs is a bad response. */
export function readRdapAnswer(query: WhoisQuery, body: unknown, registry: string): RdapObject {
  const schema = query.kind === 'ip' ? rawNetwork : query.kind === 'autnum' ? rawAutnum : rawDomain;
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new UpstreamError('rdap', 'bad_response', `the ${registry} RDAP answer is not a ${query.kind} object`);
  const raw = parsed.data;
  const entities = raw.entities ?? [];
  const common = {
    handle: raw.handle ?? null,
    name: raw.name ?? null,
    registry,
    registrant: contactWithRole(entities, 'registrant')?.name ?? null,
    abuse: contactWithRole(entities, 'abuse'),
    events: eventsOf(raw.events ?? []),
  };
  if ('startAddress' in raw) return { kind: 'ip', ...common, country: raw.country ?? null, range: rangeOf(raw) } satisfies RdapNetwork;
  if ('startAutnum' in raw) {
    const end = raw.endAutnum ?? raw.startAutnum;
    const numbers = end === raw.startAutnum ? `AS${raw.startAutnum}` : `AS${raw.startAutnum}–AS${end}`;
    return { kind: 'autnum', ...common, country: raw.country ?? null, numbers } satisfies RdapAutnum;
  }
  const domain = raw as z.infer<typeof rawDomain>;
  return {
    kind: 'domain',
    ...common,
    name: domain.unicodeName ?? domain.ldhName.toLowerCase(),
    registrar: contactWithRole(entities, 'registrar')?.name ?? null,
    status: domain.status ?? [],
    nameServers: (domain.nameservers ?? []).flatMap((server) => (server.ldhName ? [server.ldhName.toLowerCase()] : [])),
  } satisfies RdapDomain;
}

/** The network's range: its one CIDR prefix when the registry gives one, else `start – end`. */
function rangeOf(raw: z.infer<typeof rawNetwork>): string {
  const cidrs = raw.cidr0_cidrs ?? [];
  const [only] = cidrs;
  const prefix = only?.v4prefix ?? only?.v6prefix;
  if (cidrs.length === 1 && prefix !== undefined && only?.length !== undefined) return `${prefix}/${only.length}`;
  return `${raw.startAddress} – ${raw.endAddress}`;
}

function eventsOf(events: unknown[]): RdapEvents {
  const dateOf = (action: string) => {
    const event = events.find((item): item is z.infer<typeof rawEvent> => rawEvent.safeParse(item).success && (item as { eventAction: string }).eventAction === action);
    return event?.eventDate ?? null;
  };
  return { registration: dateOf('registration'), lastChanged: dateOf('last changed'), expiration: dateOf('expiration') };
}

/**
 * The first entity with `role`, searched breadth first: registries often nest the abuse contact
 * inside the registrant's entities. Nesting is bounded, whatever the answer holds.
 */
export function contactWithRole(entities: readonly RawEntity[], role: string): RdapContact | null {
  let level = [...entities];
  for (let depth = 0; depth < 5 && level.length > 0; depth++) {
    const found = level.find((entity) => entity.roles?.some((held) => held.toLowerCase() === role));
    if (found) return contactOf(found);
    level = level.flatMap((entity) => entity.entities ?? []);
  }
  return null;
}

/** A jCard (`["vcard", [[name, params, type, value], …]]`) reduced to its name, emails and phones. */
function contactOf(entity: RawEntity): RdapContact {
  const properties = Array.isArray(entity.vcardArray) && Array.isArray(entity.vcardArray[1]) ? (entity.vcardArray[1] as unknown[]) : [];
  const values = (property: string) =>
    properties.flatMap((item) => {
      if (!Array.isArray(item) || item[0] !== property) return [];
      const value: unknown = item[3];
      return typeof value === 'string' && value.trim() !== '' && value.length <= 300 ? [value.trim()] : [];
    });
  return {
    name: values('fn')[0] ?? null,
    emails: [...new Set(values('email'))].slice(0, 3),
    phones: [...new Set(values('tel').map((phone) => phone.replace(/^tel:/i, '')))].slice(0, 2),
  };
}
