/**
 * The only reader of process.env (docs/runtime-contract.md). Each CLI verb demands
 * only the variables it uses; everything missing or malformed is reported at once, in one
 * readable message that names the variable and what to set. Values are never echoed: some
 * of them are secrets.
 */

import { databaseUrlSecrets } from './database-url-secrets.js';
import { type PlanName, planNames } from './plan-names.js';

export const verbs = ['serve', 'run-job', 'check', 'simulator', 'demo', 'migrate-store'] as const;
export type Verb = (typeof verbs)[number];

export interface Config {
  apiUrl: string;
  apiKey: string;
  apiPlan: PlanName;
  slackBotToken: string;
  slackSigningSecret: string | undefined;
  slackAppToken: string | undefined;
  slackApiUrl: string;
  port: number;
  databasePath: string;
  /** postgres://… from DATABASE_URL; unset = SQLite at databasePath. */
  databaseUrl: string | undefined;
  /** Which store the process uses: Postgres when DATABASE_URL is set, else SQLite. */
  databaseBackend: DatabaseBackend;
  adminUsers: readonly string[];
  defaultTimezone: string;
  opsChannel: string | undefined;
  logLevel: LogLevel;
  /** A separate port for GET /metrics; unset = served on `port` beside /healthz. */
  metricsPort: number | undefined;
  /** Interface the metrics port binds to; unset = all, like PORT. */
  metricsHost: string | undefined;
  /** /healthz turns 503 when Slack has been unreachable for longer than this. */
  healthSlackGraceSeconds: number;
  /** How long the daily housekeeping keeps each kind of row (RETENTION_* variables). */
  retention: Retention;
  /**
   * The parts of the setup whose variables are not all set, each with what to set (only
   * `check` runs with some missing: serve and run-job refuse to start without them).
   */
  notConfigured: Partial<Record<SetupPart, readonly string[]>>;
}

/**
 * The parts of the setup that `check` checks separately, each with the variables it
 * needs: the API alone, Slack alone (the database always has a default).
 */
export const SETUP_PARTS = {
  api: ['VISIBILITY_API_URL', 'VISIBILITY_API_KEY'],
  slack: ['SLACK_BOT_TOKEN'],
} as const;
export type SetupPart = keyof typeof SETUP_PARTS;

export type DatabaseBackend = 'sqlite' | 'postgres';

/**
 * Days each kind of row is kept before the daily housekeeping deletes it. Rows that
 * delivery still needs (pending, held or being sent) are kept whatever their age; expired
 * snoozes and Slack redelivery records have no setting, being of no use once over.
 */
export interface Retention {
  /** Posted (or given up) messages in the outbox: the App Home's alert history reaches back this far. */
  messagesDays: number;
  /** What the last poll saw of a brand no longer polled (a brand still polled is refreshed every run). */
  pollDataDays: number;
  /** The record of each job run (`status`); the newest run of each job is always kept. */
  jobRunsDays: number;
  /** Who changed what (the audit log), and who acknowledged which alert. */
  auditDays: number;
}

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

export const DEFAULTS = {
  VISIBILITY_API_PLAN: 'scale',
  SLACK_API_URL: 'https://slack.com/api/',
  PORT: '3000',
  DATABASE_PATH: 'data/visibility.db',
  DEFAULT_TIMEZONE: 'UTC',
  LOG_LEVEL: 'info',
  HEALTH_SLACK_GRACE_SECONDS: '300',
  RETENTION_MESSAGES_DAYS: '90',
  RETENTION_POLL_DATA_DAYS: '90',
  RETENTION_JOB_RUNS_DAYS: '90',
  RETENTION_AUDIT_DAYS: '365',
} as const;

export class ConfigError extends Error {
  readonly code = 'config_invalid';
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(
      `Configuration problem${problems.length > 1 ? 's' : ''}:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Which variables each verb needs (beyond those with defaults). `check` needs none: it
 * checks each part of the setup that is configured and names what the others still need
 * (`notConfigured`), so the API key can be checked before Slack is set up.
 */
const REQUIRED: Record<Verb, readonly string[]> = {
  serve: [...SETUP_PARTS.api, ...SETUP_PARTS.slack],
  'run-job': [...SETUP_PARTS.api, ...SETUP_PARTS.slack],
  check: [],
  simulator: [],
  demo: [],
  'migrate-store': ['DATABASE_URL'],
};

const WHAT_TO_SET: Record<string, string> = {
  VISIBILITY_API_URL: 'set it to the base URL of the Brand Visibility API, e.g. https://api.example.com/v1',
  VISIBILITY_API_KEY: 'set it to your API key (sk_live_…), created on the Scale plan or higher',
  SLACK_BOT_TOKEN: 'set it to the bot token (xoxb-…) from your Slack app\'s "OAuth & Permissions" page',
  DATABASE_URL:
    'set it to the Postgres database to use, e.g. postgres://bot:PASSWORD@db.example.com:5432/visibility',
  SLACK_SIGNING_SECRET:
    'set SLACK_SIGNING_SECRET (HTTP mode, from "Basic Information") or SLACK_APP_TOKEN (xapp-…, Socket Mode)',
};

const isUrl = (v: string) => {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

/**
 * A zone Intl knows. UTC, the default, is taken as it is: the first zone Intl checks loads
 * its time-zone data, a cost at every start that a process using only UTC need not pay.
 */
const isTimeZone = (v: string) => {
  if (v === 'UTC') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: v });
    return true;
  } catch {
    return false;
  }
};

const noSpace = (v: string) => !/\s/.test(v);

/** A postgres:// URL naming its server: a host, or a `host=` in its query (a Unix socket folder). */
const isPostgresUrl = (v: string) => {
  try {
    const u = new URL(v);
    const host = u.hostname !== '' || (u.searchParams.get('host') ?? '') !== '';
    return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && host;
  } catch {
    return false;
  }
};

/**
 * A field's validator: the value to use, or why it is not good. Plain checks rather than a
 * schema library: the configuration is read at every start, and a short `run-job` with
 * nothing to do would otherwise compile the library's parsing code for it alone.
 */
type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };
/** A condition on the text and what to say when it does not hold; the first failing one is reported. */
type Check = readonly [holds: (v: string) => boolean, message: string];

const good = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = (message: string): Parsed<never> => ({ ok: false, message });
const regex = (re: RegExp, message: string): Check => [(v) => re.test(v), message];

/** The text itself, once every check holds. */
const text =
  (...checks: readonly Check[]) =>
  (v: string): Parsed<string> => {
    const failed = checks.find(([holds]) => !holds(v));
    return failed ? bad(failed[1]) : good(v);
  };

/** Digits read as a whole number within [min, max]; `message` otherwise. */
const wholeNumber =
  (min: number, max: number, message: string) =>
  (v: string): Parsed<number> => {
    if (!/^\d+$/.test(v)) return bad(message);
    const n = Number(v);
    return n >= min && n <= max ? good(n) : bad(message);
  };

/** One of `values`. */
const oneOf =
  <T extends string>(values: readonly T[]) =>
  (v: string): Parsed<T> =>
    (values as readonly string[]).includes(v) ? good(v as T) : bad(`must be one of ${values.join(', ')}`);

/** A whole number from 0 to 65535 written as digits. */
const port = () => wholeNumber(0, 65_535, 'must be a whole number from 0 to 65535');

const SSL_MODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;

const sslModeOf = (v: string) => {
  try {
    return new URL(v).searchParams.get('sslmode');
  } catch {
    return null;
  }
};

/**
 * `sslmode` as libpq and every Postgres tool read it (require: encrypted, not verified;
 * verify-ca and verify-full: checked against `sslrootcert`), not as pg reads it by
 * default (every mode but disable verifies, with a warning at each start). Appended, not
 * rebuilt, so the rest of the URL stays exactly as written.
 */
const withLibpqSslModes = (v: string) =>
  sslModeOf(v) === null || /[?&]uselibpqcompat=/.test(v)
    ? v
    : `${v}${v.includes('?') ? '&' : '?'}uselibpqcompat=true`;

/** The longest retention taken: ten years (a typo of a few more digits is caught). */
const MAX_RETENTION_DAYS = 3650;

/** A number of days from 1 to MAX_RETENTION_DAYS written as digits; `example` shows a good value. */
const retentionDays = (example: string) =>
  wholeNumber(
    1,
    MAX_RETENTION_DAYS,
    `must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, e.g. ${example}`,
  );

const databaseUrl = text(
  [
    isPostgresUrl,
    'must be a postgres:// or postgresql:// URL with a host, such as postgres://bot:PASSWORD@db.example.com:5432/visibility, or a Unix socket folder as host=, such as postgres://bot@localhost/visibility?host=/var/run/postgresql; percent-encode special characters in the user and password',
  ],
  [
    (v) => {
      const mode = sslModeOf(v);
      return mode === null || (SSL_MODES as readonly string[]).includes(mode);
    },
    `has an sslmode that is not one of ${SSL_MODES.join(', ')}`,
  ],
);

const adminUsers = (v: string): Parsed<string[]> => {
  const ids = v
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  return ids.every((id) => /^[UW][A-Z0-9]+$/.test(id))
    ? good(ids)
    : bad('must be comma-separated Slack user IDs such as U012ABCDEF');
};

/** Field validators: each message says what a good value looks like, never the bad value. */
const FIELDS = {
  VISIBILITY_API_URL: text([isUrl, 'must be an http(s) URL, e.g. https://api.example.com/v1']),
  VISIBILITY_API_KEY: text(
    [(v) => v.length >= 8, 'looks too short to be an API key'],
    [noSpace, 'must not contain spaces'],
  ),
  VISIBILITY_API_PLAN: oneOf(planNames),
  SLACK_BOT_TOKEN: text(
    [(v) => v.startsWith('xoxb-'), 'must be a bot token starting with xoxb-'],
    [noSpace, 'must not contain spaces'],
  ),
  SLACK_SIGNING_SECRET: text(
    [(v) => v.length >= 8, 'looks too short to be a signing secret'],
    [noSpace, 'must not contain spaces'],
  ),
  SLACK_APP_TOKEN: text([(v) => v.startsWith('xapp-'), 'must be an app-level token starting with xapp-']),
  SLACK_API_URL: text([isUrl, 'must be an http(s) URL such as https://slack.com/api/']),
  PORT: port(),
  DATABASE_PATH: text([(v) => v.length >= 1, 'must be a file path such as data/visibility.db']),
  DATABASE_URL: (v: string): Parsed<string> => {
    const checked = databaseUrl(v);
    return checked.ok ? good(withLibpqSslModes(checked.value)) : checked;
  },
  SLACK_ADMIN_USERS: adminUsers,
  DEFAULT_TIMEZONE: text([isTimeZone, 'must be an IANA time zone such as Europe/Berlin or UTC']),
  SLACK_OPS_CHANNEL: text(regex(/^[CGD][A-Z0-9]+$/, 'must be a channel ID such as C012ABCDEF')),
  LOG_LEVEL: oneOf(logLevels),
  METRICS_PORT: port(),
  METRICS_HOST: text(regex(/^[\w.:-]+$/, 'must be an address to listen on, such as 127.0.0.1 or ::1')),
  HEALTH_SLACK_GRACE_SECONDS: wholeNumber(
    0,
    Number.POSITIVE_INFINITY,
    'must be a whole number of seconds, e.g. 300',
  ),
  RETENTION_MESSAGES_DAYS: retentionDays(DEFAULTS.RETENTION_MESSAGES_DAYS),
  RETENTION_POLL_DATA_DAYS: retentionDays(DEFAULTS.RETENTION_POLL_DATA_DAYS),
  RETENTION_JOB_RUNS_DAYS: retentionDays(DEFAULTS.RETENTION_JOB_RUNS_DAYS),
  RETENTION_AUDIT_DAYS: retentionDays(DEFAULTS.RETENTION_AUDIT_DAYS),
} as const;

type FieldName = keyof typeof FIELDS;
type FieldValue<K extends FieldName> = Extract<ReturnType<(typeof FIELDS)[K]>, { ok: true }>['value'];

const isBlank = (value: string | undefined) => value === undefined || value.trim() === '';
const notSet = (name: string) => `${name} is not set: ${WHAT_TO_SET[name] ?? 'set it'}.`;

/** For each part of the setup with a variable unset, what to set. */
function notConfiguredParts(env: Env): Partial<Record<SetupPart, readonly string[]>> {
  const out: Partial<Record<SetupPart, readonly string[]>> = {};
  for (const part of Object.keys(SETUP_PARTS) as SetupPart[]) {
    const missing = SETUP_PARTS[part].filter((name) => isBlank(env[name]));
    if (missing.length > 0) out[part] = missing.map(notSet);
  }
  return out;
}

/**
 * Reads and validates the environment for `verb`. Throws ConfigError listing every
 * problem. For `simulator` and `demo` nothing is required; API and Slack values that are
 * absent come back as empty strings (the demo fills them in itself).
 */
export function loadConfig(verb: Verb, env: Env = process.env): Config {
  const problems: string[] = [];
  const required = new Set(REQUIRED[verb]);

  function read<K extends FieldName>(name: K): FieldValue<K> | undefined {
    const raw = env[name];
    const value = isBlank(raw) ? (DEFAULTS as Record<string, string>)[name] : raw?.trim();
    if (value === undefined) {
      if (required.has(name)) problems.push(notSet(name));
      return undefined;
    }
    const parsed = FIELDS[name](value);
    if (!parsed.ok) {
      problems.push(`${name} ${parsed.message}.`);
      return undefined;
    }
    return parsed.value as FieldValue<K>;
  }

  const databaseUrl = read('DATABASE_URL');
  const config: Config = {
    apiUrl: read('VISIBILITY_API_URL') ?? '',
    apiKey: read('VISIBILITY_API_KEY') ?? '',
    apiPlan: read('VISIBILITY_API_PLAN') ?? 'scale',
    slackBotToken: read('SLACK_BOT_TOKEN') ?? '',
    slackSigningSecret: read('SLACK_SIGNING_SECRET'),
    slackAppToken: read('SLACK_APP_TOKEN'),
    slackApiUrl: read('SLACK_API_URL') ?? DEFAULTS.SLACK_API_URL,
    port: read('PORT') ?? Number(DEFAULTS.PORT),
    databasePath: read('DATABASE_PATH') ?? DEFAULTS.DATABASE_PATH,
    databaseUrl,
    databaseBackend: databaseUrl === undefined ? 'sqlite' : 'postgres',
    adminUsers: read('SLACK_ADMIN_USERS') ?? [],
    defaultTimezone: read('DEFAULT_TIMEZONE') ?? DEFAULTS.DEFAULT_TIMEZONE,
    opsChannel: read('SLACK_OPS_CHANNEL'),
    logLevel: read('LOG_LEVEL') ?? 'info',
    metricsPort: read('METRICS_PORT'),
    metricsHost: read('METRICS_HOST'),
    healthSlackGraceSeconds:
      read('HEALTH_SLACK_GRACE_SECONDS') ?? Number(DEFAULTS.HEALTH_SLACK_GRACE_SECONDS),
    retention: {
      messagesDays: read('RETENTION_MESSAGES_DAYS') ?? Number(DEFAULTS.RETENTION_MESSAGES_DAYS),
      pollDataDays: read('RETENTION_POLL_DATA_DAYS') ?? Number(DEFAULTS.RETENTION_POLL_DATA_DAYS),
      jobRunsDays: read('RETENTION_JOB_RUNS_DAYS') ?? Number(DEFAULTS.RETENTION_JOB_RUNS_DAYS),
      auditDays: read('RETENTION_AUDIT_DAYS') ?? Number(DEFAULTS.RETENTION_AUDIT_DAYS),
    },
    notConfigured: notConfiguredParts(env),
  };

  // serve needs a way to receive Slack traffic: HTTP (signing secret) or Socket Mode (app token).
  const blankSecret = !env['SLACK_SIGNING_SECRET']?.trim() && !env['SLACK_APP_TOKEN']?.trim();
  if (verb === 'serve' && blankSecret) problems.push(notSet('SLACK_SIGNING_SECRET'));

  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * Every secret in the config, for log redaction and leak tests. DATABASE_URL adds its
 * password, as written (percent-encoded) and decoded, and the whole URL: a password too
 * short to be scrubbed on its own (the logger skips very short strings) is still caught
 * inside the URL.
 */
export function secretsOf(
  config: Pick<Config, 'apiKey' | 'slackBotToken' | 'slackSigningSecret' | 'slackAppToken'> &
    Partial<Pick<Config, 'databaseUrl'>>,
): string[] {
  const secrets = [config.apiKey, config.slackBotToken, config.slackSigningSecret, config.slackAppToken];
  if (config.databaseUrl) secrets.push(...databaseUrlSecrets(config.databaseUrl));
  return [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length > 0))];
}
