/**
 * undici, loaded on the first API request rather than at start-up: about a hundred
 * modules a process that calls no API (`run-job` with nothing to do) would otherwise
 * compile for nothing. The connection pool is created then too. undici is CommonJS: a
 * synchronous require from node_modules, the same copy Bolt's Socket Mode client uses.
 *
 * The client needs only the pool (it sends through `Dispatcher.dispatch`, exchange.ts),
 * so only the Agent's modules are loaded: the package's entry also loads fetch,
 * WebSocket, the caches and the mock agents, some 100 ms of CPU at a process's first
 * request. The Agent's file is not part of undici's documented interface: should a
 * release move it, the whole package is loaded instead.
 */
import { createRequire } from 'node:module';
import type { Agent, Dispatcher } from 'undici';

const require = createRequire(import.meta.url);
let undici: typeof import('undici') | undefined;
let agentClass: typeof Agent | undefined;

/** The undici module, loaded once. */
export function loadUndici(): typeof import('undici') {
  undici ??= require('undici') as typeof import('undici');
  return undici;
}

/** undici's Agent, with only the modules it needs when its file is where it was. */
export function loadAgentClass(): typeof Agent {
  if (agentClass) return agentClass;
  try {
    const loaded = require('undici/lib/dispatcher/agent.js') as unknown;
    agentClass = typeof loaded === 'function' ? (loaded as typeof Agent) : loadUndici().Agent;
  } catch {
    agentClass = loadUndici().Agent;
  }
  return agentClass;
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
      agent ??= new (loadAgentClass())(options);
      return agent;
    },
    async close() {
      await agent?.close();
    },
  };
}
