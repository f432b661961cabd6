/**
 * One API request, in the order a real gateway in front of the service works: injected
 * faults → route → auth → rate limits → body → handler. Returns the reply to send, or
 * 'reset' when a fault drops the connection.
 */
import type { IncomingMessage } from 'node:http';
import { detailShape, errorsShape, SimHttpError } from './http-error.js';
import { matchRoute } from './routes.js';
import { SIMULATOR_API_KEY } from './seed-brands.js';
import type { SimulatorCore } from './simulator-core.js';
import type { RecordedRequest } from './types.js';

/** Default bodies of injected status faults, in the shapes the real service uses. */
function faultBody(status: number): unknown {
  if (status === 500) return { detail: 'Internal Server Error' };
  if (status === 502) return { error: 'Bad Gateway', errors: [] };
  if (status === 503) return { error: 'Service temporarily unavailable, please retry', errors: [] };
  if (status === 504) return { detail: 'Gateway Timeout' };
  return { type: 'api_error', code: `http_${status}`, message: `Injected status ${status}`, param: null };
}

export function parseBody(text: string): { value: unknown; malformed: boolean } {
  if (text.trim() === '') return { value: undefined, malformed: false };
  try {
    return { value: JSON.parse(text), malformed: false };
  } catch {
    return { value: text, malformed: true };
  }
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** cut the JSON short (malformed-json fault) */
  truncate?: boolean;
}

type Terminal = NonNullable<ReturnType<SimulatorCore['faults']['take']>['terminal']>;

/**
 * A fault planned for this request that answers instead of the service: a dropped
 * connection, a fixed status, or a rate limit. Null for the faults that only bend the reply.
 */
function faultReply(
  core: SimulatorCore,
  terminal: Terminal,
  peekHeaders: () => Record<string, string>,
  limitHeaders: () => Record<string, string>,
): Reply | 'reset' | null {
  if (terminal.kind === 'reset-connection') return 'reset';
  if (terminal.kind === 'status') {
    return {
      status: terminal.status,
      body: terminal.body ?? faultBody(terminal.status),
      headers: peekHeaders(),
    };
  }
  if (terminal.kind === 'rate-limit') {
    const retryAfter = terminal.retryAfterSec === undefined ? 1 : terminal.retryAfterSec;
    const headers: Record<string, string> = core.faults.rateLimitHeadersOff()
      ? {}
      : { ...limitHeaders(), 'X-RateLimit-Remaining': '0' };
    if (retryAfter !== null) headers['Retry-After'] = String(retryAfter);
    const message =
      terminal.message ?? `Rate limit exceeded: ${core.limiter.limits().perMinute} per 1 minute`;
    return { status: 429, body: { error: message }, headers };
  }
  return null;
}

/**
 * The 401 for a missing or wrong key, or null when the key is the simulator's. docs/api.md §5
 * leaves the missing/invalid key status unshown; docs/api.md §7: 401 for both here.
 */
function authRefusal(authorization: string | undefined): { body: unknown; challenge: string } | null {
  const bearer = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (!bearer) {
    return {
      body: { detail: 'Authentication credentials were not provided. Send Authorization: Bearer <API_KEY>.' },
      challenge: 'Bearer',
    };
  }
  if (bearer[1] !== SIMULATOR_API_KEY) {
    return {
      body: { detail: { code: 'invalid_api_key', message: 'Invalid API key provided.' } },
      challenge: 'Bearer error="invalid_token"',
    };
  }
  return null;
}

export async function handleApiRequest(
  core: SimulatorCore,
  req: IncomingMessage,
  record: RecordedRequest,
  rawBody: string,
  signal: AbortSignal,
): Promise<Reply | 'reset'> {
  const { options, limiter, faults } = core;
  const { clock } = options;

  const { latencyMs, terminal } = faults.take(record.path);
  if (latencyMs > 0) await clock.sleep(latencyMs, signal);
  const rateHeadersOff = () => faults.rateLimitHeadersOff();
  const match = matchRoute(record.method, record.path);
  const route = match && 'route' in match ? match.route : null;
  const limit = route ? (limiter.limits().endpointPerMinute ?? route.perMinute) : 60;
  const windowKey = route ? (route.group ?? `${route.method} ${route.path}`) : record.path;
  const peekHeaders = () => (rateHeadersOff() ? {} : { ...limiter.peek(windowKey, limit, clock.now()) });

  const fault = terminal
    ? faultReply(core, terminal, peekHeaders, () => ({ ...limiter.peek(windowKey, limit, clock.now()) }))
    : null;
  if (fault) return fault;
  const truncate = terminal?.kind === 'malformed-json';

  // "Every response" carries the rate-limit headers (docs/api.md §8), errors before auth included.
  if (!match)
    return { status: 404, body: detailShape(404, 'Not Found').body, headers: peekHeaders(), truncate };
  if (!route) {
    return {
      status: 405,
      body: detailShape(405, 'Method Not Allowed').body,
      headers: peekHeaders(),
      truncate,
    };
  }

  const refused = authRefusal(req.headers.authorization);
  if (refused) {
    return {
      status: 401,
      body: refused.body,
      headers: { ...peekHeaders(), 'WWW-Authenticate': refused.challenge },
      truncate,
    };
  }

  const now = clock.now();
  const decision = limiter.take(windowKey, limit, now);
  const headers: Record<string, string> = rateHeadersOff() ? {} : { ...decision.headers };
  if (!decision.ok) {
    if (!rateHeadersOff()) headers['Retry-After'] = String(decision.retryAfterSec);
    return { status: 429, body: { error: decision.message }, headers, truncate };
  }

  const body = parseBody(rawBody);
  if (body.malformed) {
    return { status: 400, body: errorsShape(400, 'Request body is not valid JSON').body, headers, truncate };
  }
  try {
    const result = route.handle({
      world: core.world,
      input: { query: record.query, body: body.value },
      options,
      now,
    });
    return { status: result.status, body: result.body, headers, truncate };
  } catch (err) {
    if (err instanceof SimHttpError) {
      return { status: err.status, body: err.body, headers: { ...headers, ...err.headers }, truncate };
    }
    // A bug in the simulator: answer like a crashed service and say why on stderr.
    console.error('[simulator] handler failed:', err);
    return { status: 500, body: { detail: 'Internal Server Error' }, headers, truncate };
  }
}
