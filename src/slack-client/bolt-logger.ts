/**
 * Bolt and the Slack clients log through our pino logger, so their lines get the same
 * secret scrubbing (logger.ts) and structure as ours.
 */
// From @slack/web-api (Bolt re-exports the same @slack/logger types): run-job, check and
// the Web API clients use this without loading Bolt, Express and the Socket Mode client.
import { LogLevel, type Logger as SlackLogger } from '@slack/web-api';
import type { Logger } from '../logger.js';

function toSlackLevel(level: string): LogLevel {
  if (level === 'debug' || level === 'trace') return LogLevel.DEBUG;
  if (level === 'info') return LogLevel.INFO;
  if (level === 'warn') return LogLevel.WARN;
  return LogLevel.ERROR;
}

const line = (msg: unknown[]) =>
  msg.map((m) => (m instanceof Error ? m.message : typeof m === 'string' ? m : JSON.stringify(m))).join(' ');

export function boltLogger(logger: Logger, name = 'bolt'): SlackLogger {
  let log = logger.child({ component: name });
  return {
    debug: (...msg) => log.debug(line(msg)),
    info: (...msg) => log.info(line(msg)),
    warn: (...msg) => log.warn(line(msg)),
    error: (...msg) => log.error(line(msg)),
    // Bolt and the clients call setLevel with their own defaults; LOG_LEVEL decides.
    setLevel: () => {},
    getLevel: () => toSlackLevel(log.level),
    setName: (n) => {
      log = logger.child({ component: n });
    },
  };
}
