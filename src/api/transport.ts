/**
 * One HTTP exchange with the Brand Visibility API, with everything around it: the rate
 * limiter before each attempt, rate-limit headers fed back after it, retries, timeouts,
 * error mapping, debug logs and the metrics hook. It returns the parsed JSON body; typing
 * it is the client's job.
 *
 * Retry policy (docs/api.md §7, docs/api.md §10):
 * - GET (idempotent) is retried on network errors, timeouts and 5xx with exponential
 *   backoff and full jitter, up to `maxRetries`.
 * - POST/PUT/DELETE are never retried on those: the service may have acted already.
 * - A 429 was not processed, so every method is retried, up to `max429Retries`. The
 *   limiter does the waiting: it pauses the endpoint/key when it observes the 429, and
 *   the next `acquire` waits that pause out.
 */
import type { Dispatcher } from 'undici';
import { backoffDelay } from '../backoff-delay.js';
import type { Clock } from '../clock.js';
import { type Logger, scrubSecrets } from '../logger.js';
import { ENDPOINTS, type EndpointKey } from './endpoint-table.js';
import { errorFromResponse } from './error-from-response.js';
import { errorFromTransport, isRetryableTransportError } from './error-from-transport.js';
import { extractErrorMessage, type ServiceErrorBody } from './error-message.js';
import { AbortedError, isApiError, TimeoutError } from './errors.js';
import { exchange, type RawResponse } from './exchange.js';
import type { Lane, RateLimiter } from './limiter/types.js';
import { parseRateLimitHeaders } from './parse-rate-limit-headers.js';
import { parseJsonBody } from './parse-response.js';
import { retryDelayFromMessage } from './retry-delay-from-message.js';

export type ResponseStatus = number | 'network_error' | 'timeout';

export interface ResponseEvent {
  endpoint: EndpointKey;
  method: string;
  status: ResponseStatus;
  durationMs: number;
}

interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  max429Retries: number;
}

interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  limiter: RateLimiter;
  logger: Logger;
  clock: Clock;
  /** The connection pool, asked for at the first request (it may be created then). */
  dispatcher: () => Dispatcher;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  retry: RetryPolicy;
  random: () => number;
  onResponse?: ((e: ResponseEvent) => void) | undefined;
}

export type QueryValue = string | number | boolean | undefined;

export interface SendRequest {
  /** Sent as the query string (GET, DELETE). Undefined values are left out. */
  query?: Readonly<Record<string, QueryValue>>;
  /** Sent as the JSON body (POST, PUT). Undefined values are left out by JSON.stringify. */
  body?: Readonly<Record<string, unknown>>;
  /** A 2xx with an empty body reads as `{}` (docs/api.md §4.5: success body not shown). */
  allowEmpty?: boolean;
  /**
   * Lets an endpoint turn an error response into a value instead of an error (a refresh
   * answered "already generating"). Returning undefined keeps the error.
   */
  recover?: (status: number, body: ServiceErrorBody) => unknown;
  lane?: Lane | undefined;
  signal?: AbortSignal | undefined;
  /** The limiter's interactive order (CallOptions.priority); kept across retries. */
  priority?: number | undefined;
}

const USER_AGENT = 'visibility-bot';

/** One call's endpoint, lane, URL, body and HTTP client: the same for each of its attempts. */
interface Call {
  key: EndpointKey;
  spec: (typeof ENDPOINTS)[EndpointKey];
  endpoint: string;
  lane: Lane;
  origin: string;
  /** The path after the origin, with the query string. */
  path: string;
  body: string | undefined;
  dispatcher: Dispatcher;
}

interface Answer {
  status: number;
  rate: ReturnType<typeof parseRateLimitHeaders>;
  error: ServiceErrorBody | undefined;
}

export class Transport {
  readonly #o: TransportOptions;
  /** The base URL's origin and path prefix (a proxy's /api), parsed at the first request. */
  #base: { origin: string; prefix: string } | undefined;
  readonly #headers: { plain: Record<string, string>; json: Record<string, string> };

  constructor(options: TransportOptions) {
    this.#o = options;
    const plain = {
      authorization: `Bearer ${options.apiKey}`,
      accept: 'application/json',
      'user-agent': USER_AGENT,
    };
    this.#headers = { plain, json: { ...plain, 'content-type': 'application/json' } };
  }

  async send(key: EndpointKey, req: SendRequest): Promise<unknown> {
    const call = this.#call(key, req);
    const { retry } = this.#o;
    const tries = { retries: 0, rateLimitRetries: 0 };
    for (let attempt = 1; ; attempt++) {
      await this.#acquire(call, req);
      const started = this.#o.clock.now();
      let res: RawResponse;
      try {
        res = await this.#attempt(call, req.signal);
      } catch (err) {
        const error = this.#noAnswer(call, err, req.signal, started, attempt);
        if (call.spec.idempotent && isRetryableTransportError(error) && tries.retries < retry.maxRetries) {
          await this.#backoff(tries.retries++, call.endpoint, req.signal);
          continue;
        }
        throw error;
      }
      const answer = this.#observeAnswer(call, res, started, attempt);
      const { error } = answer;
      if (error === undefined) return parseJsonBody(res.text, call.endpoint, req.allowEmpty);
      const next = await this.#afterRefusal(call, req, { ...answer, error }, tries, attempt);
      if (next.retry) continue;
      return next.value;
    }
  }

  /** What every attempt of one call shares. */
  #call(key: EndpointKey, req: SendRequest): Call {
    const spec = ENDPOINTS[key];
    this.#base ??= baseOf(this.#o.baseUrl);
    return {
      key,
      spec,
      endpoint: `${spec.method} ${spec.path}`,
      lane: req.lane ?? 'interactive',
      origin: this.#base.origin,
      path: this.#base.prefix + spec.path + queryString(req.query),
      body: spec.method === 'POST' || spec.method === 'PUT' ? JSON.stringify(req.body ?? {}) : undefined,
      // Created (undici loaded) before the limiter grants a token, so the first request's timing is the exchange's.
      dispatcher: this.#o.dispatcher(),
    };
  }

  async #acquire(call: Call, req: SendRequest): Promise<void> {
    const { signal } = req;
    if (signal?.aborted) throw errorFromTransport(signal.reason, call.endpoint, signal);
    try {
      await this.#o.limiter.acquire(call.key, call.lane, signal, req.priority);
    } catch (err) {
      throw isApiError(err) || !signal?.aborted ? err : errorFromTransport(err, call.endpoint, signal);
    }
  }

  /** An attempt that got no answer: the error it makes, reported and logged. */
  #noAnswer(call: Call, err: unknown, signal: AbortSignal | undefined, started: number, attempt: number) {
    const error = errorFromTransport(err, call.endpoint, signal);
    const durationMs = this.#o.clock.now() - started;
    // No response, but the request may have reached the service: the limiter settles
    // the send, so it does not wait on an answer that will never come.
    this.#o.limiter.observe(call.key, { status: 0 });
    if (!(error instanceof AbortedError)) {
      const status = error instanceof TimeoutError ? 'timeout' : 'network_error';
      this.#report(call.key, call.spec.method, status, durationMs);
    }
    this.#o.logger.debug(
      { endpoint: call.endpoint, attempt, durationMs, error: error.code },
      'api request failed',
    );
    return error;
  }

  /** An answer: reported, logged and shown to the limiter; its error body when not a 2xx. */
  #observeAnswer(call: Call, res: RawResponse, started: number, attempt: number): Answer {
    const { clock, logger, limiter } = this.#o;
    const durationMs = clock.now() - started;
    const { status } = res;
    this.#report(call.key, call.spec.method, status, durationMs);
    logger.debug({ endpoint: call.endpoint, attempt, status, durationMs }, 'api response');
    const rate = parseRateLimitHeaders(res.headers, clock.now());
    const error = status >= 200 && status < 300 ? undefined : this.#errorBody(res.text);
    limiter.observe(call.key, {
      status,
      limit: rate.limit,
      remaining: rate.remaining,
      resetAtMs: rate.resetAtMs,
      retryAfterMs: rate.retryAfterMs,
      message: status === 429 ? error?.message : undefined,
    });
    return { status, rate, error };
  }

  /** A refusal: try again (a 429 within its retries, a 5xx of an idempotent call), recover, or throw. */
  async #afterRefusal(
    call: Call,
    req: SendRequest,
    answer: Answer & { error: ServiceErrorBody },
    tries: { retries: number; rateLimitRetries: number },
    attempt: number,
  ): Promise<{ retry: true } | { retry: false; value: unknown }> {
    const { retry, logger } = this.#o;
    const { status, rate, error } = answer;
    if (status === 429) {
      if (tries.rateLimitRetries < retry.max429Retries) {
        tries.rateLimitRetries++;
        logger.warn(
          { endpoint: call.endpoint, attempt, retryAfterMs: rate.retryAfterMs },
          'api rate limited; retrying',
        );
        return { retry: true };
      }
    } else if (req.recover) {
      const recovered = req.recover(status, error);
      if (recovered !== undefined) return { retry: false, value: recovered };
    }
    if (status >= 500 && call.spec.idempotent && tries.retries < retry.maxRetries) {
      await this.#backoff(tries.retries++, call.endpoint, req.signal);
      return { retry: true };
    }
    throw errorFromResponse({
      endpointKey: call.key,
      endpoint: call.endpoint,
      status,
      serviceMessage: error.message,
      retryAfterMs: rate.retryAfterMs ?? retryDelayFromMessage(error.message),
    });
  }

  /** One exchange; the whole body is read whatever the status, so the connection is reused. */
  #attempt(call: Call, signal: AbortSignal | undefined): Promise<RawResponse> {
    return exchange(
      call.dispatcher,
      {
        origin: call.origin,
        path: call.path,
        method: call.spec.method as Dispatcher.HttpMethod,
        headers: call.body === undefined ? this.#headers.plain : this.#headers.json,
        body: call.body,
        headersTimeout: this.#o.headersTimeoutMs,
        bodyTimeout: this.#o.bodyTimeoutMs,
      },
      signal,
    );
  }

  /** The service's message, scrubbed of the key in case the service echoes credentials. */
  #errorBody(text: string): ServiceErrorBody {
    const body = extractErrorMessage(text);
    const scrub = (s: string | undefined) => (s === undefined ? s : scrubSecrets(s, [this.#o.apiKey]));
    return { message: scrub(body.message), code: scrub(body.code), status: scrub(body.status) };
  }

  async #backoff(retryIndex: number, endpoint: string, signal: AbortSignal | undefined): Promise<void> {
    const delayMs = backoffDelay(retryIndex, {
      baseDelayMs: this.#o.retry.baseDelayMs,
      maxDelayMs: this.#o.retry.maxDelayMs,
      jitter: 'full',
      random: this.#o.random,
    });
    this.#o.logger.debug({ endpoint, retry: retryIndex + 1, delayMs }, 'api retry after backoff');
    try {
      await this.#o.clock.sleep(delayMs, signal);
    } catch (err) {
      throw errorFromTransport(err, endpoint, signal);
    }
  }

  #report(endpoint: EndpointKey, method: string, status: ResponseStatus, durationMs: number): void {
    try {
      this.#o.onResponse?.({ endpoint, method, status, durationMs });
    } catch (err) {
      // A broken metrics hook must not fail the request it measures.
      this.#o.logger.warn({ err }, 'api onResponse hook threw');
    }
  }
}

/** A base URL's origin and its path without trailing slashes (`http://proxy/api/` → `/api`). */
function baseOf(baseUrl: string): { origin: string; prefix: string } {
  const url = new URL(baseUrl);
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
}

/** `?a=1&b=x` encoded as a URL's searchParams would, undefined values left out; '' for none. */
function queryString(query: SendRequest['query']): string {
  const params = new URLSearchParams();
  for (const name in query) {
    const value = query[name];
    if (value !== undefined) params.append(name, String(value));
  }
  return params.size > 0 ? `?${params.toString()}` : '';
}
