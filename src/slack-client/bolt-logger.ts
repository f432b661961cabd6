/**
 * Bolt and the Slack clients log through our pino logger, so their lines get the same
 * secret scrubbing (logger.ts) and structure as ours.
 */
// Types from @slack/web-api (Bolt re-exports the same @slack/logger types): run-job, check
// and the Web API clients use this without loading Bolt, Express and the Socket Mode client.
import type { LogLevel, Logger as SlackLogger } from '@slack/web-api';
import type { Logger } from '../logger.js';
import { SLACK_LOG_LEVEL } from './web-api-codes.js';

function toSlackLevel(level: string): LogLevel {
  if (level === 'debug' || level === 'trace') return SLACK_LOG_LEVEL.DEBUG;
  if (level === 'info') return SLACK_LOG_LEVEL.INFO;
  if (level === 'warn') return SLACK_LOG_LEVEL.WARN;
  return SLACK_LOG_LEVEL.ERROR;
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
