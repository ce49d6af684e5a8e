import { once } from 'node:events';
import { createServer } from 'node:net';

/** A port of 127.0.0.1 free right now, for a server started by a program that cannot take port 0. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no free port on 127.0.0.1');
  return address.port;
}
