import type { Answer } from 'dns-packet';
import type { DigRecord } from '../../ip/dig-answer.js';

/** Most characters of one record's data shown (a long TXT or DNSKEY is cut, not dropped). */
const MAX_DATA = 400;

function text(value: unknown): string {
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (Array.isArray(value)) return value.map(text).join('');
  return String(value);
}

function quoted(value: unknown): string {
  const strings = Array.isArray(value) ? value : [value];
  return strings.map((part) => JSON.stringify(text(part))).join(' ');
}

function base64(value: unknown): string {
  return Buffer.isBuffer(value) ? value.toString('base64') : '';
}

function hex(value: unknown): string {
  return Buffer.isBuffer(value) ? value.toString('hex').toUpperCase() : '';
}

/** A decoded record's data as dig prints it, by type; a type the command does not ask for is written as dns-packet decoded it. */
function dataOf(record: Answer): string {
  const data = (record as { data?: unknown }).data as Record<string, unknown> & unknown;
  switch (record.type) {
    case 'MX':
      return `${(data as { preference: number }).preference} ${(data as { exchange: string }).exchange}`;
    case 'TXT':
      return quoted(data);
    case 'SOA': {
      const soa = data as { mname: string; rname: string; serial: number; refresh: number; retry: number; expire: number; minimum: number };
      return `${soa.mname} ${soa.rname} ${soa.serial} ${soa.refresh} ${soa.retry} ${soa.expire} ${soa.minimum}`;
    }
    case 'CAA': {
      const caa = data as { flags: number; tag: string; value: string };
      return `${caa.flags} ${caa.tag} ${JSON.stringify(caa.value)}`;
    }
    case 'SRV': {
      const srv = data as { priority: number; weight: number; port: number; target: string };
      return `${srv.priority} ${srv.weight} ${srv.port} ${srv.target}`;
    }
    case 'DS': {
      const ds = data as { keyTag: number; algorithm: number; digestType: number; digest: unknown };
      return `${ds.keyTag} ${ds.algorithm} ${ds.digestType} ${hex(ds.digest)}`;
    }
    case 'DNSKEY': {
      const key = data as { flags: number; algorithm: number; key: unknown };
      return `${key.flags} 3 ${key.algorithm} ${base64(key.key)}`;
    }
    default:
      return text(data);
  }
}

/** The answer section as shown: each record's owner name, TTL, type and data. */
export function digRecordsOf(answers: readonly Answer[]): DigRecord[] {
  return answers.flatMap((record) => {
    if (record.type === 'OPT') return [];
    const data = dataOf(record);
    return [{ name: record.name, type: record.type, ttl: (record as { ttl?: number }).ttl ?? 0, data: data.length > MAX_DATA ? `${data.slice(0, MAX_DATA - 1)}…` : data }];
  });
}
