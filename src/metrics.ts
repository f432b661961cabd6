/**
 * Prometheus metrics on a registry of our own (never prom-client's global one, so tests
 * and several services in one process do not collide). Limiter gauges are read from the
 * limiter at scrape time; everything else is counted as it happens.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { LimiterState } from './api/limiter/types.js';
import type { ResponseEvent } from './api/transport.js';

/** What the scheduler reports about itself (jobs, last runs); shown on /healthz. */
export type SchedulerState = Record<string, unknown>;

/** `ok`, `slack_error` (200 {ok:false}), `rate_limited` (429), `http_error`, `network_error`. */
export type SlackCallOutcome = 'ok' | 'slack_error' | 'rate_limited' | 'http_error' | 'network_error';

/** `user_error`: bad input or a refusal; `api_error`: the API failed in an expected way; `error`: a bug. */
export type CommandOutcome = 'ok' | 'user_error' | 'api_error' | 'error';

export interface Metrics {
  readonly registry: Registry;
  observeApiResponse(e: ResponseEvent): void;
  observeSlackCall(method: string, outcome: SlackCallOutcome, error?: string): void;
  observeCommand(subcommand: string, seconds: number, outcome: CommandOutcome): void;
  /** Limiter gauges read `state()` at each scrape. */
  bindLimiter(state: () => LimiterState): void;
  setSchedulerState(state: SchedulerState): void;
  schedulerState(): SchedulerState | undefined;
}

const LANES = ['interactive', 'background'] as const;

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  let limiterState: (() => LimiterState) | undefined;
  let scheduler: SchedulerState | undefined;
  const registers = [registry];

  const apiRequests = new Counter({
    name: 'api_requests_total',
    help: 'Requests sent to the Brand Visibility API (every attempt), by endpoint and status',
    labelNames: ['endpoint', 'status'] as const,
    registers,
  });
  const apiDuration = new Histogram({
    name: 'api_request_duration_seconds',
    help: 'Duration of Brand Visibility API requests, by endpoint',
    labelNames: ['endpoint'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const slackCalls = new Counter({
    name: 'slack_api_calls_total',
    help: 'Slack Web API calls and response_url posts, by method and outcome',
    labelNames: ['method', 'outcome'] as const,
    registers,
  });
  const slackErrors = new Counter({
    name: 'slack_api_errors_total',
    help: 'Slack errors by method and error code (e.g. channel_not_found, invalid_blocks)',
    labelNames: ['method', 'error'] as const,
    registers,
  });
  const commandDuration = new Histogram({
    name: 'command_duration_seconds',
    help: 'Time from receiving a /visibility command to its last reply, by subcommand and outcome',
    labelNames: ['subcommand', 'outcome'] as const,
    buckets: [0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30],
    registers,
  });

  const fromLimiter = (read: (s: LimiterState, g: Gauge) => void) =>
    function collect(this: Gauge) {
      if (limiterState) read(limiterState(), this);
    };
  new Gauge({
    name: 'limiter_queue_length',
    help: 'Callers waiting for an API token, by lane',
    labelNames: ['lane'] as const,
    registers,
    collect: fromLimiter((s, g) => {
      for (const lane of LANES) g.set({ lane }, s.lanes[lane].queued);
    }),
  });
  new Gauge({
    name: 'limiter_tokens',
    help: "Tokens in the API key's shared bucket",
    registers,
    collect: fromLimiter((s, g) => g.set(s.tokens)),
  });
  new Gauge({
    name: 'limiter_wait_seconds',
    help: 'Total seconds callers have waited for an API token since start, by lane',
    labelNames: ['lane'] as const,
    registers,
    collect: fromLimiter((s, g) => {
      for (const lane of LANES) g.set({ lane }, s.waitedMs[lane] / 1000);
    }),
  });
  new Gauge({
    name: 'limiter_requests_today',
    help: 'Requests counted against the API key today (UTC), across processes',
    registers,
    collect: fromLimiter((s, g) => g.set(s.usedToday)),
  });
  new Gauge({
    name: 'limiter_rate_limited_total',
    help: '429 answers seen from the API since start',
    registers,
    collect: fromLimiter((s, g) => g.set(s.rateLimitedCount)),
  });

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
    bindLimiter(state) {
      limiterState = state;
    },
    setSchedulerState(state) {
      scheduler = state;
    },
    schedulerState: () => scheduler,
  };
}
