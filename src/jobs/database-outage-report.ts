/**
 * A database outage that lasts is the bot's own trouble (docs/alert-semantics.md: SLACK_OPS_CHANNEL): it
 * is said there once it has lasted `reportAfterMs` (a blip of a few seconds is only
 * logged), and once more when the database answers again.
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

interface DatabaseOutageReportDeps {
  database: Pick<DatabaseHealth, 'onChange'>;
  web: WebClient;
  config: { opsChannel: string | undefined };
  clock: Clock;
  logger: Logger;
}

interface DatabaseOutageReportOptions {
  /** How long an outage lasts before it is reported; default 60 s. */
  reportAfterMs?: number;
  /** Names this process in the report (the scheduler's owner, `serve:<host>:<pid>`). */
  processName: string;
}

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
  /** The current outage was reported: its end is reported too. */
  let reported = false;

  const post = (event: 'raised' | 'cleared', detail: string | null, atMs: number) => {
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
        reported = true;
        void post(
          'raised',
          `Seen by ${options.processName}: ${WHY[s.reason ?? 'db_unreachable']} since ${new Date(sinceMs).toISOString()}.`,
          deps.clock.now(),
        );
      }, reportAfterMs);
      timer.unref();
      return;
    }
    if (!reported) return;
    reported = false;
    void post('cleared', null, sinceMs);
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
