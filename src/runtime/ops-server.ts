import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { StartupError } from './startup-error.js';

interface OpsServerOptions {
  port: number;
  host?: string;
  registry: Registry;
  isReady: () => boolean;
}

export interface OpsServer {
  port: number;
  /** Where it listens, e.g. `http://127.0.0.1:9464`. */
  url: string;
  close(): Promise<void>;
}

/** `/metrics` for Prometheus, `/healthz` (the process answers) and `/readyz` (logged in to Discord). */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://ops').pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    } else if (path === '/readyz') {
      const ready = options.isReady();
      res.writeHead(ready ? 200 : 503, { 'content-type': 'text/plain' }).end(ready ? 'ready\n' : 'not ready\n');
    } else if (path === '/metrics') {
      options.registry.metrics().then(
        (body) => res.writeHead(200, { 'content-type': options.registry.contentType }).end(body),
        () => res.writeHead(500).end(),
      );
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    }
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenFailure(error, options.port, host)));
    server.listen(options.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What to change when the ops server cannot listen; other errors pass through unchanged. */
function listenFailure(error: NodeJS.ErrnoException, port: number, host: string): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new StartupError(
        `METRICS_PORT ${port} on ${host} is already in use by another process: stop it, or set METRICS_PORT to a free port (empty turns the ops server off).`,
        { cause: error },
      );
    case 'EACCES':
      return new StartupError(`METRICS_PORT ${port} needs privileges this process lacks: use a port above 1023.`, { cause: error });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new StartupError(`METRICS_HOST ${host} is not an address of this machine: use 127.0.0.1, 0.0.0.0 or one of its addresses.`, { cause: error });
    default:
      return error;
  }
}
