/**
 * undici, loaded on the first API request rather than at start-up: about a hundred
 * modules a process that calls no API (`run-job` with nothing to do) would otherwise
 * compile for nothing. The connection pool is created then too. undici is CommonJS: a
 * synchronous require from node_modules, the same copy Bolt's Socket Mode client uses.
 */
import { createRequire } from 'node:module';
import type { Agent, Dispatcher } from 'undici';

const require = createRequire(import.meta.url);
let undici: typeof import('undici') | undefined;

/** The undici module, loaded once. */
export function loadUndici(): typeof import('undici') {
  undici ??= require('undici') as typeof import('undici');
  return undici;
}

export interface LazyAgent {
  /** The pool, created on the first call. */
  get(): Dispatcher;
  /** Closes the pool if it was created. */
  close(): Promise<void>;
}

/** A keep-alive Agent with `options`, created when a request first needs it. */
export function lazyAgent(options: Agent.Options): LazyAgent {
  let agent: Dispatcher | undefined;
  return {
    get() {
      agent ??= new (loadUndici().Agent)(options);
      return agent;
    },
    async close() {
      await agent?.close();
    },
  };
}
