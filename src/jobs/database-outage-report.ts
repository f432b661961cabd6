/**
 * A database outage that lasts is the bot's own trouble (DESIGN.md: SLACK_OPS_CHANNEL): it
 * is said there once it has lasted `reportAfterMs` (a blip of a few seconds is only
 * logged), and once more, with how long it lasted, when the database answers again.
 *
 * Not through the outbox, which lives in the database: posted directly, once per process
 * that sees the outage, naming the process (with replicas, one replica may lose the
 * database while the others keep it). A post Slack refuses is logged, not retried: the
 * outage is in the logs and in `/visibility status` either way.
 */
import type { WebClient } from '@slack/web-api';
import type { Clock } from '../clock.js';
import type { DatabaseHealth, DatabaseHealthSnapshot } from '../database-health.js';
import type { Logger } from '../logger.js';
import { buildOpsMessage, OPS_METADATA_EVENT } from '../messages/ops-message.js';
import type { ServiceLifecycle } from '../service-lifecycle.js';

export const DATABASE_FLAG = 'database_unreachable';

export interface DatabaseOutageReportDeps {
  database: Pick<DatabaseHealth, 'onChange'>;
  web: WebClient;
  config: { opsChannel: string | undefined };
  clock: Clock;
  logger: Logger;
}

export interface DatabaseOutageReportOptions {
  /** How long an outage lasts before it is reported; default 60 s. */
  reportAfterMs?: number;
  /** Names this process in the report (the scheduler's owner, `serve:<host>:<pid>`). */
  processName: string;
}

const minutes = (ms: number) => Math.max(1, Math.round(ms / 60_000));

const WHY: Record<NonNullable<DatabaseHealthSnapshot['reason']>, string> = {
  db_unreachable: 'it cannot be reached',
  db_locked: 'another program holds the SQLite file locked',
  db_timeout: 'it does not answer in time',
};

export function reportDatabaseOutages(
  deps: DatabaseOutageReportDeps,
  lifecycle: ServiceLifecycle,
  options: DatabaseOutageReportOptions,
): void {
  const channel = deps.config.opsChannel;
  if (!channel) return;
  const logger = deps.logger.child({ component: 'database-outage-report' });
  const reportAfterMs = options.reportAfterMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  /** When the outage being reported began (product clock); null when none was reported. */
  let reportedSince: number | null = null;

  const post = (event: 'raised' | 'cleared', detail: string, atMs: number) => {
    const message = buildOpsMessage({ flag: DATABASE_FLAG, event, detail, atMs });
    return deps.web.chat
      .postMessage({
        channel,
        text: message.text,
        blocks: message.blocks as never,
        metadata: {
          event_type: OPS_METADATA_EVENT,
          event_payload: { flag: DATABASE_FLAG, event, process: options.processName },
        },
      })
      .then(
        () => logger.info({ event }, 'database outage reported to the ops channel'),
        (err: unknown) => logger.warn({ err, event }, 'could not report the database outage'),
      );
  };

  const onChange = (s: DatabaseHealthSnapshot) => {
    clearTimeout(timer);
    timer = undefined;
    const sinceMs = s.since ? Date.parse(s.since) : deps.clock.now();
    if (!s.reachable) {
      timer = setTimeout(() => {
        reportedSince = sinceMs;
        void post(
          'raised',
          `Seen by ${options.processName}: ${WHY[s.reason ?? 'db_unreachable']} since ${new Date(sinceMs).toISOString()}.`,
          deps.clock.now(),
        );
      }, reportAfterMs);
      timer.unref();
      return;
    }
    if (reportedSince === null) return;
    const lasted = sinceMs - reportedSince;
    reportedSince = null;
    void post('cleared', `It answers again after about ${minutes(lasted)} min.`, sinceMs);
  };
  const unsubscribe = deps.database.onChange(onChange);
  lifecycle.waitFor(
    'the database outage report',
    new Promise<void>((resolve) => {
      const stop = () => {
        unsubscribe();
        clearTimeout(timer);
        resolve();
      };
      if (lifecycle.signal.aborted) stop();
      else lifecycle.signal.addEventListener('abort', stop, { once: true });
    }),
  );
}
