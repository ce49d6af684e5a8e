/**
 * What RDAP (RFC 9083) says about a network, an autonomous system or a domain, as Almanac shows it:
 * the registry's answer reduced to the facts an operator acts on. Built by src/services/rdap from
 * the registries' JSON; shown by src/render/rdap.ts.
 */

/** A contact (a jCard reduced to what one writes to). */
export interface RdapContact {
  name: string | null;
  emails: string[];
  phones: string[];
}

export interface RdapEvents {
  registration: string | null;
  lastChanged: string | null;
  expiration: string | null;
}

interface RdapCommon {
  handle: string | null;
  name: string | null;
  /** The registry that answered: its RDAP server's host name (after any redirect). */
  registry: string;
  registrant: string | null;
  /** The entity with the `abuse` role, wherever it is nested; null when the registry lists none. */
  abuse: RdapContact | null;
  events: RdapEvents;
}

export interface RdapNetwork extends RdapCommon {
  kind: 'ip';
  /** `8.8.8.0/24`, or `start – end` when the range is not one prefix. */
  range: string;
  country: string | null;
}

export interface RdapAutnum extends RdapCommon {
  kind: 'autnum';
  /** `AS13335`, or `AS64496–AS64511` for a block. */
  numbers: string;
  country: string | null;
}

export interface RdapDomain extends RdapCommon {
  kind: 'domain';
  registrar: string | null;
  status: string[];
  nameServers: string[];
}

export type RdapObject = RdapNetwork | RdapAutnum | RdapDomain;
