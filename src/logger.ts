/**
 * Structured logs (pino). Secrets are removed twice: known fields are redacted by key,
 * and every secret value the process knows (API key, Slack tokens, signing secret) is
 * scrubbed from the final line, wherever it hides (an error message, a URL, a body).
 * Both happen on the finished line, which is parsed anyway to keep one of each key.
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

/**
 * Fields whose value never reaches a line: a field of the line, or of an object one level
 * down (`{ req: { authorization } }`), and `headers.authorization` of such an object. The
 * same fields pino's `redact` paths named (`token`, `*.token`, `*.headers.authorization`),
 * without compiling those paths when the logger is made and walking them on every line.
 */
const SECRET_KEYS: ReadonlySet<string> = new Set([
  'authorization',
  'Authorization',
  'token',
  'apiKey',
  'signingSecret',
  'appToken',
  'databaseUrl',
  'connectionString',
]);

export const REDACTED = '[redacted]';

type Fields = Record<string, unknown>;

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

function redactSecretKeys(line: Fields): void {
  for (const [key, value] of Object.entries(line)) {
    if (SECRET_KEYS.has(key)) line[key] = REDACTED;
    else if (isObject(value)) {
      for (const inner of Object.keys(value)) if (SECRET_KEYS.has(inner)) value[inner] = REDACTED;
      if (isObject(value['headers']) && 'authorization' in value['headers'])
        value['headers']['authorization'] = REDACTED;
    }
  }
}

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
 * outer's) in its first place; the secret fields are redacted on the parsed line. A line
 * that does not parse (pino writes JSON, so none) is left to scrubSecrets alone.
 */
function oneKeyPerField(line: string): string {
  try {
    const trailing = line.endsWith('\n') ? '\n' : '';
    const fields: unknown = JSON.parse(line);
    if (isObject(fields)) redactSecretKeys(fields);
    return `${JSON.stringify(fields)}${trailing}`;
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
