/**
 * A GET's body read through undici's dispatch handler API and decoded once, as the API
 * client reads it (src/api/exchange.ts) without its timeouts, retries and mapping: the
 * cheapest way undici offers to read a body, for the benchmarks' floors and peers.
 */
import type { Dispatcher } from 'undici';

export function dispatchText(agent: Dispatcher, origin: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    agent.dispatch(
      { origin, path, method: 'GET', headers: { accept: 'application/json' } },
      {
        onRequestStart: () => {},
        onResponseStart: () => {},
        onResponseData: (_c, chunk) => {
          chunks.push(chunk);
        },
        onResponseEnd: () => resolve(Buffer.concat(chunks).toString('utf8')),
        onResponseError: (_c, err) => reject(err),
      },
    );
  });
}
