import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig, verbs } from '../src/config.js';

const repo = fileURLToPath(new URL('..', import.meta.url));

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  profiles?: string[];
  environment?: Record<string, string>;
  env_file?: { path: string; required: boolean }[];
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
}
interface Compose {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}

/** Compose files use anchors and merge keys (`<<: *bot`); both are resolved, as Compose does. */
function parseYaml(file: string): Compose {
  return parse(readFileSync(`${repo}/${file}`, 'utf8'), { merge: true }) as Compose;
}

const compose = parseYaml('compose.replicas.yaml');
const single = parseYaml('compose.yaml');
const services = compose.services;
const replicas = Object.entries(services).filter(([, s]) => s.profiles === undefined && s.build === '.');
const SECRETS = ['VISIBILITY_API_KEY', 'SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'SLACK_APP_TOKEN'];

/** Compose's `${VAR:?message}` with a value, as `docker compose` interpolates it. */
const interpolate = (text: string, vars: Record<string, string>) =>
  text.replace(/\$\{(\w+)(?::\?[^}]*)?\}/g, (_, name: string) => vars[name] ?? '');

describe('compose.replicas.yaml', () => {
  it('runs Postgres from the official image with a health check and a volume', () => {
    const pg = services['postgres'];
    expect(pg?.image).toMatch(/^postgres:\d+$/);
    expect(pg?.healthcheck?.test.join(' ')).toContain('pg_isready -U visibility -d visibility');
    expect(pg?.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(compose.volumes).toHaveProperty('postgres-data');
    expect(pg?.environment?.['POSTGRES_PASSWORD']).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
  });

  it('runs two serve replicas on that database, secrets from .env only', () => {
    expect(replicas.map(([name]) => name)).toEqual(['bot-1', 'bot-2']);
    for (const [, bot] of replicas) {
      // No command: the image's own, `serve`.
      expect(bot.command).toBeUndefined();
      expect(bot.env_file).toEqual([{ path: '.env', required: true }]);
      expect(bot.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
      const env = bot.environment ?? {};
      for (const secret of SECRETS) expect(env).not.toHaveProperty(secret);
      const url = env['DATABASE_URL'] ?? '';
      expect(url).toBe(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's interpolation, left for compose
        'postgres://visibility:${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env}@postgres:5432/visibility',
      );
      // What the replica receives passes the bot's own validation and selects Postgres.
      const config = loadConfig('serve', {
        VISIBILITY_API_URL: 'https://api.example.com/v1',
        VISIBILITY_API_KEY: 'sk_live_0123456789abcdef',
        SLACK_BOT_TOKEN: 'xoxb-1',
        SLACK_APP_TOKEN: 'xapp-1',
        ...env,
        DATABASE_URL: interpolate(url, { POSTGRES_PASSWORD: 'a1b2c3d4e5f6' }),
      });
      expect(config.databaseBackend).toBe('postgres');
      expect(config.port).toBe(3000);
    }
  });

  it('puts nginx in front of exactly those replicas for HTTP mode only', () => {
    const balancer = services['balancer'];
    expect(balancer?.profiles).toEqual(['http']);
    expect(balancer?.image).toMatch(/^nginx:/);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's interpolation, left for compose
    expect(balancer?.ports).toEqual(['${PORT:-3000}:80']);
    const mount = balancer?.volumes?.[0] ?? '';
    const [hostPath] = mount.split(':');
    expect(mount).toMatch(/:\/etc\/nginx\/conf\.d\/default\.conf:ro$/);
    const conf = readFileSync(`${repo}/${hostPath}`, 'utf8');
    const upstreams = [...conf.matchAll(/^\s*server\s+([\w-]+):(\d+)/gm)].map((m) => `${m[1]}:${m[2]}`);
    expect(upstreams).toEqual(replicas.map(([name]) => `${name}:3000`));
    expect(conf).toMatch(/listen 80;/);
  });

  it("copies compose.yaml's SQLite database with migrate-store, on the same volume and path", () => {
    const migrate = services['migrate-store'];
    expect(migrate?.profiles).toEqual(['migrate']);
    expect(migrate?.command).toEqual(['node', 'dist/main.js', 'migrate-store']);
    expect(verbs).toContain('migrate-store');
    const bot = single.services['bot'];
    expect(migrate?.volumes).toEqual(bot?.volumes);
    expect(migrate?.environment?.['DATABASE_PATH']).toBe(bot?.environment?.['DATABASE_PATH']);
    expect(migrate?.environment?.['DATABASE_URL']).toBe(services['bot-1']?.environment?.['DATABASE_URL']);
    expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(Object.keys(single.volumes)));
  });

  it('names no file that is not in the repository', () => {
    const files = Object.values(services).flatMap((s) =>
      (s.volumes ?? []).filter((v) => v.startsWith('./')).map((v) => v.split(':')[0] ?? ''),
    );
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(existsSync(`${repo}/${file}`), file).toBe(true);
  });
});
