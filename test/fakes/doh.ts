import type { FakeDns } from './dns.js';
import { FakeServer, type FakeResponse } from './fake-server.js';

/**
 * A fake DNS-over-HTTPS resolver (RFC 8484) on 127.0.0.1: `GET /dns-query?dns=<base64url>` answered
 * from a `FakeDns` zone in the wire format, as `application/dns-message`; a query that is not one is
 * a 400. `DOH_RESOLVERS` points at `url`.
 */
export class FakeDoh extends FakeServer {
  constructor(zone: FakeDns) {
    super((request): FakeResponse => {
      const encoded = request.query.get('dns');
      if (request.path !== '/dns-query' || encoded === null) return { status: 400, body: 'bad request' };
      const reply = zone.reply(Buffer.from(encoded, 'base64url'));
      return reply === undefined ? { status: 502, body: 'no answer' } : { status: 200, headers: { 'content-type': 'application/dns-message' }, body: reply };
    });
  }

  /** The resolver's URL, as `DOH_RESOLVERS` takes it. */
  get endpoint(): string {
    return `${this.url}/dns-query`;
  }
}

export async function startFakeDoh(zone: FakeDns): Promise<FakeDoh> {
  return new FakeDoh(zone).start();
}
