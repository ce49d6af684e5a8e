import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** How a fake upstream misbehaves, for fault tests. `normal` serves the faithful responses. */
export type FaultMode =
  | 'normal'
  /** Headers only after `slowMs`. */
  | 'slow'
  /** 500 with an HTML error page. */
  | 'html500'
  /** 200 with a truncated JSON body. */
  | 'malformed'
  /** The socket is destroyed before any response. */
  | 'reset';

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as received. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  at: number;
}

export interface FakeResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export type RouteHandler = (request: RecordedRequest) => FakeResponse | Promise<FakeResponse>;

/**
 * A recording HTTP server on 127.0.0.1 that the fake upstreams build on: it keeps every request,
 * reports the most requests seen in any sliding window, and can be switched into fault modes.
 */
export class FakeServer {
  readonly requests: RecordedRequest[] = [];
  mode: FaultMode = 'normal';
  slowMs = 4_000;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  /** Ends the waits of requests held in `slow` mode (see `reset`). */
  private readonly heldRequests = new Set<() => void>();
  private baseUrl = '';

  constructor(private readonly handler: RouteHandler) {}

  get url(): string {
    return this.baseUrl;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /**
   * Back to normal: records cleared, and requests still held by `slow` mode are answered normally at
   * once (the fault is over), so none of them lands later, in the middle of the next test.
   */
  reset(): void {
    this.requests.length = 0;
    this.releaseHeld();
  }

  /** Back to normal mode: requests held by `slow` mode are answered normally at once; records kept. */
  releaseHeld(): void {
    this.mode = 'normal';
    for (const release of this.heldRequests) release();
    this.heldRequests.clear();
  }

  /** Requests whose path starts with `prefix` (all when omitted). */
  requestsTo(prefix = ''): RecordedRequest[] {
    return this.requests.filter((request) => request.path.startsWith(prefix));
  }

  /** The largest number of requests (matching `prefix`) that started within any `windowMs` span. */
  maxInWindow(windowMs: number, prefix = ''): number {
    const times = this.requestsTo(prefix)
      .map((request) => request.at)
      .sort((a, b) => a - b);
    let max = 0;
    let start = 0;
    for (let end = 0; end < times.length; end++) {
      while (times[end]! - times[start]! >= windowMs) start++;
      max = Math.max(max, end - start + 1);
    }
    return max;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const parsed = new URL(req.url ?? '/', 'http://fake');
    const request: RecordedRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      path: parsed.pathname,
      query: parsed.searchParams,
      headers: req.headers,
      at: performance.now(),
    };
    this.requests.push(request);
    req.resume();
    switch (this.mode) {
      case 'reset':
        req.socket.destroy();
        return;
      case 'html500':
        this.send(res, htmlPage(500, 'Internal Server Error'));
        return;
      case 'slow':
        await new Promise<void>((resolve) => {
          const release = () => {
            clearTimeout(timer);
            this.heldRequests.delete(release);
            resolve();
          };
          const timer = setTimeout(release, this.slowMs);
          this.heldRequests.add(release);
        });
        break;
      default:
        break;
    }
    let response: FakeResponse;
    try {
      response = await this.handler(request);
    } catch (error) {
      response = htmlPage(500, `fake handler error: ${String(error)}`);
    }
    if (this.mode === 'malformed' && response.status === 200) {
      const body = Buffer.from(response.body ?? '');
      response = { ...response, body: body.subarray(0, Math.max(1, Math.floor(body.length / 2))) };
    }
    this.send(res, response);
  }

  private send(res: ServerResponse, response: FakeResponse): void {
    if (res.destroyed) return;
    res.writeHead(response.status, response.headers);
    res.end(response.body ?? '');
  }
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): FakeResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export function htmlPage(status: number, title: string, headers: Record<string, string> = {}): FakeResponse {
  return {
    status,
    headers: { 'content-type': 'text/html; charset=UTF-8', ...headers },
    body: `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>\n`,
  };
}
