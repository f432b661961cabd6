/**
 * Injected faults: the failures a client must survive (5xx, slow answers, broken JSON,
 * 429s with and without Retry-After, missing rate-limit headers, dropped connections).
 * A fault with a `path` hits that path and the paths below it; `count` (default 1) is how
 * many requests it affects before it is used up.
 */
import { z } from 'zod';
import type { SimulatorFault } from './types.js';

const count = z.number().int().min(1).optional();
const path = z.string().startsWith('/').optional();

const faultSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('status'),
    status: z.number().int().min(100).max(599),
    count,
    path,
    body: z.unknown().optional(),
  }),
  z.object({ kind: z.literal('latency'), ms: z.number().min(0), count, path }),
  z.object({ kind: z.literal('malformed-json'), count, path }),
  z.object({
    kind: z.literal('rate-limit'),
    count,
    retryAfterSec: z.number().min(0).nullable().optional(),
    message: z.string().optional(),
    path,
  }),
  z.object({ kind: z.literal('no-rate-limit-headers') }),
  z.object({ kind: z.literal('reset-connection'), count, path }),
]);

/** Validates a fault (from the control endpoint or a typed caller); throws with a readable message. */
function parseFault(input: unknown): SimulatorFault {
  const parsed = faultSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid fault: ${issue?.path.join('.') || 'kind'} ${issue?.message ?? ''}`.trim());
  }
  return parsed.data as SimulatorFault;
}

export type TerminalFault = Extract<
  SimulatorFault,
  { kind: 'status' | 'malformed-json' | 'rate-limit' | 'reset-connection' }
>;

interface ActiveFault {
  fault: SimulatorFault;
  remaining: number;
}

export interface FaultBook {
  add(fault: SimulatorFault): void;
  clear(): void;
  /** faults still armed, with how many requests each will still affect */
  list(): Array<SimulatorFault & { remaining: number | null }>;
  rateLimitHeadersOff(): boolean;
  /** Uses up the faults that hit `path`: total latency, then at most one terminal fault. */
  take(path: string): { latencyMs: number; terminal: TerminalFault | null };
}

function hits(fault: SimulatorFault, path: string): boolean {
  if (!('path' in fault) || fault.path === undefined) return true;
  const prefix = fault.path.replace(/\/+$/, '');
  return path === prefix || path.startsWith(`${prefix}/`);
}

export function createFaultBook(): FaultBook {
  let active: ActiveFault[] = [];
  let headersOff = false;
  const use = (a: ActiveFault) => {
    a.remaining -= 1;
  };
  return {
    add(fault) {
      const valid = parseFault(fault);
      if (valid.kind === 'no-rate-limit-headers') headersOff = true;
      else active.push({ fault: valid, remaining: valid.count ?? 1 });
    },
    clear() {
      active = [];
      headersOff = false;
    },
    list() {
      const armed = active
        .filter((a) => a.remaining > 0)
        .map((a) => ({ ...a.fault, remaining: a.remaining }));
      return headersOff ? [...armed, { kind: 'no-rate-limit-headers' as const, remaining: null }] : armed;
    },
    rateLimitHeadersOff: () => headersOff,
    take(path) {
      let latencyMs = 0;
      for (const a of active) {
        if (a.remaining > 0 && a.fault.kind === 'latency' && hits(a.fault, path)) {
          latencyMs += a.fault.ms;
          use(a);
        }
      }
      const terminal = active.find(
        (a) => a.remaining > 0 && a.fault.kind !== 'latency' && hits(a.fault, path),
      );
      if (terminal) use(terminal);
      active = active.filter((a) => a.remaining > 0);
      return { latencyMs, terminal: (terminal?.fault as TerminalFault | undefined) ?? null };
    },
  };
}
