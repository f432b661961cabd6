/**
 * Prometheus metrics on a registry of our own (never prom-client's global one, so tests
 * and several services in one process do not collide), named by Prometheus conventions
 * (https://prometheus.io/docs/practices/naming/): our metrics carry the `visibility_bot_`
 * prefix (Node's default process metrics keep their standard names), counters end in
 * `_total`, units are in the name (`_seconds`), and every label has a bounded set of
 * values (endpoint and method names from our tables, Slack error codes, outcomes).
 * The limiter's figures are read from the limiter at scrape time; counters among them
 * only ever move forward by the limiter's own monotonic totals.
 *
 * prom-client (and the OpenTelemetry API it brings, some eighty modules) is loaded when a
 * metric is first recorded or read, not at start-up: `run-job` with nothing to do never
 * records one. It is CommonJS, so a synchronous require does it without making every
 * `observe…` call asynchronous.
 */
import { createRequire } from 'node:module';
import type { Counter, Gauge, Registry } from 'prom-client';
import type { LimiterState } from './api/limiter/types.js';
import type { ResponseEvent } from './api/transport.js';

/** Prefix of every metric of ours. */
export const METRIC_PREFIX = 'visibility_bot_';

/** What the scheduler reports about itself (jobs, last runs); shown on /healthz. */
export type SchedulerState = Record<string, unknown>;

/** `ok`, `slack_error` (200 {ok:false}), `rate_limited` (429), `http_error`, `network_error`. */
export type SlackCallOutcome = 'ok' | 'slack_error' | 'rate_limited' | 'http_error' | 'network_error';

/** `user_error`: bad input or a refusal; `api_error`: the API failed in an expected way; `error`: a bug. */
/** `database_unavailable`: answered that the database cannot be used right now (nothing changed). */
export type CommandOutcome = 'ok' | 'user_error' | 'api_error' | 'database_unavailable' | 'error';

export interface Metrics {
  readonly registry: Registry;
  observeApiResponse(e: ResponseEvent): void;
  observeSlackCall(method: string, outcome: SlackCallOutcome, error?: string): void;
  /** A /visibility command, by subcommand (the registry's names, or `unknown`). */
  observeCommand(subcommand: string, seconds: number, outcome: CommandOutcome): void;
  /** A button or menu click, by action (the action handlers' prefixes, or `unknown`). */
  observeAction(action: string, seconds: number, outcome: CommandOutcome): void;
  /** An outbox row handled by the relay: its kind (alert, digest…) and outcome (sent, retried, failed, paused, held). */
  observeDelivery(kind: string, outcome: string): void;
  /** Limiter gauges read `state()` at each scrape. */
  bindLimiter(state: () => LimiterState): void;
  setSchedulerState(state: SchedulerState): void;
  schedulerState(): SchedulerState | undefined;
}

const LANES = ['interactive', 'background'] as const;

const require = createRequire(import.meta.url);

interface Recorders {
  registry: Registry;
  observeApiResponse(e: ResponseEvent): void;
  observeSlackCall(method: string, outcome: SlackCallOutcome, error?: string): void;
  observeCommand(subcommand: string, seconds: number, outcome: CommandOutcome): void;
  observeAction(action: string, seconds: number, outcome: CommandOutcome): void;
  observeDelivery(kind: string, outcome: string): void;
}

export function createMetrics(): Metrics {
  let limiterState: (() => LimiterState) | undefined;
  let scheduler: SchedulerState | undefined;
  let recorders: Recorders | undefined;
  const r = () => {
    recorders ??= createRecorders(() => limiterState);
    return recorders;
  };
  return {
    get registry() {
      return r().registry;
    },
    observeApiResponse: (e) => r().observeApiResponse(e),
    observeSlackCall: (method, outcome, error) => r().observeSlackCall(method, outcome, error),
    observeCommand: (subcommand, seconds, outcome) => r().observeCommand(subcommand, seconds, outcome),
    observeAction: (action, seconds, outcome) => r().observeAction(action, seconds, outcome),
    observeDelivery: (kind, outcome) => r().observeDelivery(kind, outcome),
    bindLimiter(state) {
      limiterState = state;
    },
    setSchedulerState(state) {
      scheduler = state;
    },
    schedulerState: () => scheduler,
  };
}

/** The registry and its metrics, built on first use. */
// Long by design: the list of metrics registered, one short declaration each, then their recorders.
function createRecorders(limiter: () => (() => LimiterState) | undefined): Recorders {
  const { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } =
    require('prom-client') as typeof import('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client names three gauges `_total`, which promtool rejects (a `_total` is a
  // counter); their per-type gauges (nodejs_active_handles{type} …) carry the same counts.
  for (const name of [
    'nodejs_active_handles_total',
    'nodejs_active_requests_total',
    'nodejs_active_resources_total',
  ])
    registry.removeSingleMetric(name);
  const registers = [registry];

  const apiRequests = new Counter({
    name: `${METRIC_PREFIX}api_requests_total`,
    help: 'Requests sent to the Brand Visibility API (every attempt), by endpoint and status',
    labelNames: ['endpoint', 'status'] as const,
    registers,
  });
  const apiDuration = new Histogram({
    name: `${METRIC_PREFIX}api_request_duration_seconds`,
    help: 'Duration of Brand Visibility API requests, by endpoint',
    labelNames: ['endpoint'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const slackCalls = new Counter({
    name: `${METRIC_PREFIX}slack_api_calls_total`,
    help: 'Slack Web API calls and response_url posts, by method and outcome',
    labelNames: ['method', 'outcome'] as const,
    registers,
  });
  const slackErrors = new Counter({
    name: `${METRIC_PREFIX}slack_api_errors_total`,
    help: 'Slack errors by method and error code (e.g. channel_not_found, invalid_blocks)',
    labelNames: ['method', 'error'] as const,
    registers,
  });
  const deliveries = new Counter({
    name: `${METRIC_PREFIX}outbox_deliveries_total`,
    help: 'Outbox rows handled by the relay, by kind and outcome (sent, retried, failed, paused, held)',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  const interactionBuckets = [0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30];
  const commandDuration = new Histogram({
    name: `${METRIC_PREFIX}command_duration_seconds`,
    help: 'Time from receiving a /visibility command to its last reply, by subcommand and outcome',
    labelNames: ['subcommand', 'outcome'] as const,
    buckets: interactionBuckets,
    registers,
  });
  const actionDuration = new Histogram({
    name: `${METRIC_PREFIX}action_duration_seconds`,
    help: 'Time from a button or menu click to its last reply, by action and outcome',
    labelNames: ['action', 'outcome'] as const,
    buckets: interactionBuckets,
    registers,
  });

  const fromLimiter = (read: (s: LimiterState, g: Gauge) => void) =>
    function collect(this: Gauge) {
      const state = limiter();
      if (state) read(state(), this);
    };
  /**
   * A counter fed from one of the limiter's running totals: it moves forward by what the
   * total grew since the last scrape, so it stays monotonic as Prometheus expects.
   */
  function limiterCounter<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    totals: (s: LimiterState) => ReadonlyArray<[Partial<Record<L, string>>, number]>,
  ): void {
    const seen = new Map<string, number>();
    new Counter({
      name,
      help,
      labelNames,
      registers,
      collect(this: Counter<L>) {
        const state = limiter();
        if (!state) return;
        for (const [labels, total] of totals(state())) {
          const key = JSON.stringify(labels);
          const grown = total - (seen.get(key) ?? 0);
          seen.set(key, total);
          // inc by 0 still shows the series from the first scrape, so rate() has a start.
          this.inc(labels, Math.max(0, grown));
        }
      },
    });
  }

  new Gauge({
    name: `${METRIC_PREFIX}limiter_queue_length`,
    help: 'Callers waiting for an API token, by lane',
    labelNames: ['lane'] as const,
    registers,
    collect: fromLimiter((s, g) => {
      for (const lane of LANES) g.set({ lane }, s.lanes[lane].queued);
    }),
  });
  new Gauge({
    name: `${METRIC_PREFIX}limiter_tokens`,
    help: "Tokens in the API key's shared bucket",
    registers,
    collect: fromLimiter((s, g) => g.set(s.tokens)),
  });
  new Gauge({
    name: `${METRIC_PREFIX}limiter_requests_today`,
    help: 'Requests counted against the API key today (UTC), across processes',
    registers,
    collect: fromLimiter((s, g) => g.set(s.usedToday)),
  });
  limiterCounter(
    `${METRIC_PREFIX}limiter_wait_seconds_total`,
    'Seconds callers have waited for an API token, by lane',
    ['lane'] as const,
    (s) => LANES.map((lane) => [{ lane }, s.waitedMs[lane] / 1000]),
  );
  limiterCounter(
    `${METRIC_PREFIX}api_rate_limited_total`,
    '429 answers the API gave this process',
    [] as const,
    (s) => [[{}, s.rateLimitedCount]],
  );

  return {
    registry,
    observeApiResponse(e) {
      apiRequests.inc({ endpoint: e.endpoint, status: String(e.status) });
      apiDuration.observe({ endpoint: e.endpoint }, e.durationMs / 1000);
    },
    observeSlackCall(method, outcome, error) {
      slackCalls.inc({ method, outcome });
      if (error) slackErrors.inc({ method, error });
    },
    observeCommand(subcommand, seconds, outcome) {
      commandDuration.observe({ subcommand, outcome }, seconds);
    },
    observeDelivery(kind, outcome) {
      deliveries.inc({ kind, outcome });
    },
    observeAction(action, seconds, outcome) {
      actionDuration.observe({ action, outcome }, seconds);
    },
  };
}
