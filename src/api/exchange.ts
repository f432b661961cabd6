/**
 * One HTTP request and its whole response, read through undici's dispatch handler API
 * (`Dispatcher.dispatch`): the body's chunks are kept as they arrive and decoded once at
 * the end. `request()` would hand the body over as a Readable stream; a citation feed of
 * a few hundred kB then goes through the stream machinery chunk by chunk, which cost
 * about as much CPU again as reading it (bench/api-client.ts).
 *
 * What `request()` + `body.text()` did is kept: the headers and body timeouts are the
 * dispatch options undici enforces, an abort of `signal` at any point (before the request
 * starts, waiting for headers, mid-body) cancels it through the controller undici hands
 * the handler and rejects with the signal's reason, a failure mid-body (reset, timeout,
 * a length that does not match) rejects with undici's error, informational (1xx)
 * responses are skipped, and a UTF-8 byte order mark is dropped. The body is always read
 * to its end, so the connection goes back to the keep-alive pool.
 */
import type { Dispatcher } from 'undici';

export interface ExchangeRequest {
  origin: string;
  /** Path and query string. */
  path: string;
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body: string | undefined;
  headersTimeout: number;
  bodyTimeout: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Sends `req` on `dispatcher`; resolves once the whole body has arrived. */
export function exchange(
  dispatcher: Dispatcher,
  req: ExchangeRequest,
  signal: AbortSignal | undefined,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const handler = new BodyCollector(resolve, reject, signal);
    try {
      dispatcher.dispatch(req, handler);
    } catch (err) {
      // Invalid options or a closed dispatcher throw synchronously.
      handler.onResponseError(undefined, err as Error);
    }
  });
}

const BOM = [0xef, 0xbb, 0xbf] as const;

class BodyCollector implements Dispatcher.DispatchHandler {
  #status = 0;
  #headers: RawResponse['headers'] = {};
  #chunks: Buffer[] = [];
  #controller: Dispatcher.DispatchController | undefined;
  #settled = false;
  readonly #resolve: (res: RawResponse) => void;
  readonly #reject: (err: unknown) => void;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = () => this.#abort();

  constructor(resolve: (res: RawResponse) => void, reject: (err: unknown) => void, signal?: AbortSignal) {
    this.#resolve = resolve;
    this.#reject = reject;
    this.#signal = signal;
    signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // Aborted while the request waited for a connection: it never goes out.
    if (this.#settled) controller.abort(this.#abortError());
    else this.#controller = controller;
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: RawResponse['headers'],
  ) {
    if (statusCode < 200) return; // 100 Continue and other informational answers: the real one follows.
    this.#status = statusCode;
    this.#headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.#settle()) this.#resolve({ status: this.#status, headers: this.#headers, text: this.#text() });
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, err: Error): void {
    if (this.#settle()) this.#reject(err);
  }

  /** Cancels the request (undici then calls onResponseError, which finds it settled). */
  #abort(): void {
    if (!this.#settle()) return;
    this.#reject(this.#signal?.reason);
    this.#controller?.abort(this.#abortError());
  }

  /** The signal's reason when it is an Error (undici destroys the socket with it). */
  #abortError(): Error {
    const reason: unknown = this.#signal?.reason;
    return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
  }

  /** True the first time only: the promise is settled once, and the abort listener removed. */
  #settle(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    this.#signal?.removeEventListener('abort', this.#onAbort);
    return true;
  }

  #text(): string {
    const chunks = this.#chunks;
    this.#chunks = [];
    if (chunks.length === 0) return '';
    const buffer = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    const start = buffer[0] === BOM[0] && buffer[1] === BOM[1] && buffer[2] === BOM[2] ? 3 : 0;
    return buffer.toString('utf8', start);
  }
}
