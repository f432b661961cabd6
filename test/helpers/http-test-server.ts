/**
 * A real node:http server on port 0 that records every request it receives (method,
 * path, query, headers, body) so tests assert on what crossed the wire, in order.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
  /** The client's socket port: equal ports mean a reused keep-alive connection. */
  remotePort: number | undefined;
}

export type TestHandler = (req: RecordedRequest, res: ServerResponse, raw: IncomingMessage) => unknown;

export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  /** Replace the handler between requests. */
  handle(handler: TestHandler): void;
  close(): Promise<void>;
}

export async function startTestServer(
  handler: TestHandler = (_req, res) => sendJson(res, 200, {}),
): Promise<TestServer> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const url = new URL(raw.url ?? '/', 'http://localhost');
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const recorded: RecordedRequest = {
        method: raw.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: raw.headers,
        body,
        json,
        remotePort: raw.socket.remotePort,
      };
      requests.push(recorded);
      Promise.resolve(current(recorded, res, raw)).catch((err: unknown) => {
        res.statusCode = 599;
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  contentType = 'text/plain',
): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(text);
}
