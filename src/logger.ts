/**
 * Structured logs (pino). Secrets are removed twice: known fields are redacted by path,
 * and every secret value the process knows (API key, Slack tokens, signing secret) is
 * scrubbed from the final line, wherever it hides (an error message, a URL, a body).
 */
import { type DestinationStream, type Logger, pino } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger } from 'pino';

interface LoggerOptions {
  level?: LogLevel;
  /** Literal secret values to scrub from every line. */
  secrets?: readonly string[];
  /** Where lines go (tests capture them); defaults to stdout. */
  destination?: DestinationStream;
  name?: string;
}

const REDACT_PATHS = [
  'authorization',
  'Authorization',
  '*.authorization',
  '*.Authorization',
  'headers.authorization',
  '*.headers.authorization',
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  'signingSecret',
  '*.signingSecret',
  'appToken',
  '*.appToken',
  'databaseUrl',
  '*.databaseUrl',
  'connectionString',
  '*.connectionString',
];

export const REDACTED = '[redacted]';

/** Replaces every occurrence of each secret in `text`. Secrets shorter than 6 chars are ignored. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s.length >= 6 && out.includes(s)) out = out.split(s).join(REDACTED);
  }
  // Anything that looks like a bearer credential or a Slack token, known or not.
  return out
    .replace(/Bearer\s+[A-Za-z0-9._~+/=-]{6,}/g, `Bearer ${REDACTED}`)
    .replace(/xox[abposr]-[A-Za-z0-9-]{6,}/g, REDACTED)
    .replace(/xapp-[A-Za-z0-9-]{6,}/g, REDACTED)
    .replace(/sk_(live|test)_[A-Za-z0-9]{6,}/g, REDACTED);
}

/**
 * pino writes a child's bindings and the call's own fields side by side, so a key bound
 * twice (a child of a child, or a call repeating a binding) appears twice in the line,
 * which some log pipelines reject and others collapse. Parsing the line keeps one of each
 * (the last written: the call's own value over a binding, an inner child's over an
 * outer's) in its first place; a line that does not parse is left as it is.
 */
function oneKeyPerField(line: string): string {
  try {
    const trailing = line.endsWith('\n') ? '\n' : '';
    return `${JSON.stringify(JSON.parse(line))}${trailing}`;
  } catch {
    return line;
  }
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = [...(options.secrets ?? [])];
  return pino(
    {
      name: options.name ?? 'visibility-bot',
      level: options.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      hooks: {
        streamWrite: (line: string) => scrubSecrets(oneKeyPerField(line), secrets),
      },
    },
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/** A logger that drops everything (tests that do not inspect logs). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
