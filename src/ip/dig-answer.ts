import type { ResolveFailure } from './resolution.js';
import { describeSpecialRange } from './special-ranges.js';

/** One record of an answer, its data written as dig writes it (`10 mx.example.com`). */
export interface DigRecord {
  name: string;
  type: string;
  ttl: number;
  data: string;
}

/** A DNS answer as `/ip dig` shows it: the answer section with TTLs, and the header's flags. */
export interface DigAnswer {
  /** `NOERROR`, `NXDOMAIN`, `SERVFAIL`, … */
  rcode: string;
  /** AD: the resolver validated the answer with DNSSEC. */
  authentic: boolean;
  /** TC: the answer did not fit and was cut (over UDP it is asked again over TCP, which shows it whole). */
  truncated: boolean;
  records: DigRecord[];
  /** Addresses left out because they are private, loopback or otherwise special. */
  hiddenPrivate: number;
  /** How the answer came: `udp`, `tcp` (after a truncated UDP answer) or `https` (DNS over HTTPS). */
  transport: 'udp' | 'tcp' | 'https';
}

export type DigOutcome = { ok: true; answer: DigAnswer } | { ok: false; failure: ResolveFailure };

/**
 * The records a member may see: A and AAAA records of special-range addresses are left out and
 * counted (as `/ip` never shows a name's private addresses, a window into someone's network).
 */
export function withoutPrivateAddresses(records: readonly DigRecord[]): { records: DigRecord[]; hidden: number } {
  const shown = records.filter((record) => !((record.type === 'A' || record.type === 'AAAA') && describeSpecialRange(record.data) !== null));
  return { records: shown, hidden: records.length - shown.length };
}
