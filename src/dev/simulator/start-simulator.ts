/**
 * The HTTP server: reads each request, answers /__control itself, records every API
 * request and hands it to handleApiRequest; closes cleanly, aborting injected latency.
 */
import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleControl } from './control-routes.js';
import { handleApiRequest, parseBody, type Reply } from './handle-api-request.js';
import { errorsShape, SimHttpError } from './http-error.js';
import { resolveOptions } from './resolve-options.js';
import { SIMULATOR_API_KEY } from './seed-brands.js';
import { createSimulatorCore } from './simulator-core.js';
import type { RecordedRequest, RunningSimulator, SimulatorOptions } from './types.js';

const MAX_BODY_BYTES = 1_000_000;
const CONTROL_PREFIX = '/__control';

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw errorsShape(413, 'Request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, reply: Reply): void {
  let text = JSON.stringify(reply.body ?? null);
  if (reply.truncate) text = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  res.writeHead(reply.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    ...reply.headers,
  });
  res.end(text);
}

/**
 * One request: the body read, then the control routes or the simulated API; a request the
 * simulator fails on is a 500, and one cut short by closing is dropped.
 */
async function answer(
  core: ReturnType<typeof createSimulatorCore>,
  closing: AbortSignal,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://simulator');
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  const query = Object.fromEntries(url.searchParams);
  const method = (req.method ?? 'GET').toUpperCase();
  let rawBody: string;
  try {
    rawBody = await readBody(req);
  } catch (err) {
    const e = err instanceof SimHttpError ? err : errorsShape(400, 'Could not read the request body');
    send(res, { status: e.status, body: e.body });
    return;
  }
  if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
    const parsed = parseBody(rawBody);
    if (parsed.malformed) {
      send(res, { status: 400, body: { error: 'body is not valid JSON' } });
      return;
    }
    send(res, handleControl(core, method, path, query, parsed.value));
    return;
  }
  const record: RecordedRequest = {
    at: core.options.clock.now(),
    method,
    path,
    query,
    body: parseBody(rawBody).value,
    status: 0,
  };
  core.requests.push(record);
  try {
    const reply = await handleApiRequest(core, req, record, rawBody, closing);
    if (reply === 'reset') {
      // status stays 0: nothing was answered.
      req.socket.destroy();
      return;
    }
    record.status = reply.status;
    send(res, reply);
  } catch (err) {
    if (closing.aborted) {
      req.socket.destroy();
      return;
    }
    console.error('[simulator] request failed:', err);
    record.status = 500;
    if (!res.headersSent) send(res, { status: 500, body: { detail: 'Internal Server Error' } });
  }
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const resolved = resolveOptions(options);
  const core = createSimulatorCore(resolved);
  const closing = new AbortController();
  // Every request held by injected latency listens on this one signal until it answers;
  // hundreds at once is a load test, not a leak (0 = no limit, no warning).
  setMaxListeners(0, closing.signal);

  const server = createServer((req, res) => {
    void answer(core, closing.signal, req, res);
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    apiKey: SIMULATOR_API_KEY,
    control: core.control,
    requests: core.requests,
    close: async () => {
      closing.abort(new Error('simulator closed'));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
