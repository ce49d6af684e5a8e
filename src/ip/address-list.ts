import { parseIpAddress } from './address.js';
import { parseHostName, type EntryProblem } from './host-name.js';
import { parseLookupEntry, targetKey, type LookupTarget } from './lookup-entry.js';

/** Most entries in one `/ip lookup`, and most addresses located by one command. */
export const MAX_ENTRIES = 10;
export const MAX_ADDRESSES = 10;

export interface RejectedEntry {
  entry: string;
  problem: EntryProblem;
}

interface LookupList {
  /** De-duplicated targets (addresses canonical, names in ASCII), in the order first given. */
  targets: LookupTarget[];
  rejected: RejectedEntry[];
  /** Valid entries beyond the limit, not looked up. */
  skipped: number;
}

/** Splits "a, b c" into entries and reads each one; duplicates (in any spelling) count once. */
export function parseLookupList(input: string, limit = MAX_ENTRIES): LookupList {
  const entries = input.split(/[\s,;]+/).filter((entry) => entry !== '');
  const targets: LookupTarget[] = [];
  const rejected: RejectedEntry[] = [];
  let skipped = 0;
  for (const entry of entries) {
    const parsed = parseLookupEntry(entry);
    if (!parsed.ok) rejected.push({ entry, problem: parsed.problem });
    else if (targets.some((target) => targetKey(target) === targetKey(parsed.target))) continue;
    else if (targets.length >= limit) skipped++;
    else targets.push(parsed.target);
  }
  return { targets, rejected, skipped };
}

// Candidates are deliberately loose (any run of hex digits, dots and colons); `parseIpAddress` decides.
const IPV4_CANDIDATE = /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])/g;
const IPV6_CANDIDATE = /(?<![0-9a-f:])(?=[0-9a-f:.]*:[0-9a-f:.]*:)[0-9a-f:.]{2,45}(?![0-9a-f:])/gi;

/**
 * The IPv4 and IPv6 addresses in free text (log lines, alerts), canonical, with where each starts.
 * Ports (`1.2.3.4:443`, `[::1]:80`) and CIDR suffixes are ignored around an address rather than
 * making it unreadable.
 */
function locateIpAddresses(text: string): { index: number; end: number; address: string }[] {
  const found: { index: number; end: number; address: string }[] = [];
  for (const pattern of [IPV4_CANDIDATE, IPV6_CANDIDATE]) {
    for (const match of text.matchAll(pattern)) {
      const candidate = match[0].replace(/^:+(?=[0-9a-f]*\.)/i, '').replace(/[.:]+$/, (tail) => (tail === '::' ? tail : ''));
      const parsed = parseIpAddress(candidate);
      if (parsed.ok) found.push({ index: match.index, end: match.index + match[0].length, address: parsed.address });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

/** The host of each URL in free text; hosts that are addresses are the address finder's. */
const URL_HOST = /\b[a-z][a-z0-9+.-]*:\/\/(?:[^\s/?#@<>"'`]*@)?([^\s/?#:@<>"'`()[\],;]+)/gi;

/**
 * The targets in a message: its IPv4 and IPv6 addresses and the hosts of its URLs, in order of
 * appearance, each once. Bare dotted words are not taken for names: logs are full of them
 * (`app.service.start`, file names, versions), and each would cost a DNS query.
 */
export function findLookupTargets(text: string): LookupTarget[] {
  const found: { index: number; target: LookupTarget }[] = [];
  for (const match of text.matchAll(URL_HOST)) {
    const name = parseHostName(match[1]!);
    if (name.ok) found.push({ index: match.index, target: { kind: 'name', name: name.name, display: name.display } });
  }
  for (const { index, address } of locateIpAddresses(text)) found.push({ index, target: { kind: 'address', address } });
  found.sort((a, b) => a.index - b.index);
  const targets = new Map<string, LookupTarget>();
  for (const { target } of found) if (!targets.has(targetKey(target))) targets.set(targetKey(target), target);
  return [...targets.values()];
}

/** Most distinct addresses one log is read for (`/ip bulk`, Locate IP on an attachment). */
export const MAX_BULK_ADDRESSES = 1_000;

/** The addresses of a whole log: each distinct one with how often it appears, in order of first appearance. */
export interface AddressTally {
  counts: Map<string, number>;
  /** Distinct addresses past `max`, not counted. */
  skipped: number;
}

/** Every IPv4 and IPv6 address in a log, canonical (`::ffff:1.2.3.4` is 1.2.3.4), at most `max` distinct. */
export function tallyIpAddresses(text: string, max = MAX_BULK_ADDRESSES): AddressTally {
  const counts = new Map<string, number>();
  const skippedAddresses = new Set<string>();
  let covered = 0;
  for (const { index, end, address } of locateIpAddresses(text)) {
    // The IPv4 tail of an IPv6 address (`::ffff:1.2.3.4`) is part of it, not an address of its own.
    if (index < covered) continue;
    covered = end;
    const count = counts.get(address);
    if (count !== undefined) counts.set(address, count + 1);
    else if (counts.size < max) counts.set(address, 1);
    else skippedAddresses.add(address);
  }
  return { counts, skipped: skippedAddresses.size };
}

/** A log's text: UTF-8, damaged bytes replaced; null for a file with NUL bytes (binary, not a log). */
export function logText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  return new TextDecoder('utf-8').decode(bytes);
}

/** Extensions of the files read as logs by Locate IP (a message's images and archives are not). */
const LOG_EXTENSIONS = new Set(['log', 'txt', 'csv', 'tsv', 'json', 'jsonl', 'ndjson', 'out', 'err', 'md', 'conf', 'xml', 'yaml', 'yml']);

/** Whether an attachment's name looks like a log: a text extension, or none. */
export function isLogName(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot <= 0 || LOG_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}
