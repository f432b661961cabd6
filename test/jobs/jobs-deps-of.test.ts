/**
 * The jobs get the process's parts but only their settings of the config: the API key,
 * the Slack token, the signing secret and the database URL stay with the clients built in
 * app-deps.ts. And the bot's Slack client stays lazy through the cut: it is created when
 * the relay first posts, not when the jobs' deps are made.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import type { VisibilityApi } from '../../src/api/visibility-api.js';
import { type AppDeps, createAppDeps } from '../../src/app-deps.js';
import { loadConfig } from '../../src/config.js';
import { jobsDepsOf } from '../../src/jobs/jobs-deps-of.js';
import { captureLogger } from '../e2e/service-harness.js';

const SECRETS = {
  VISIBILITY_API_KEY: 'sk_live_11112222333344445555666677778888',
  SLACK_BOT_TOKEN: 'xoxb-jobs-deps-token-4242',
  SLACK_SIGNING_SECRET: 'jobs-deps-signing-secret-4242',
};

let dir: string | undefined;
let deps: AppDeps | undefined;
afterEach(async () => {
  await deps?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  deps = undefined;
  dir = undefined;
});

function build(): AppDeps {
  dir = mkdtempSync(join(tmpdir(), 'visibility-jobs-deps-'));
  const config = loadConfig('serve', {
    ...SECRETS,
    VISIBILITY_API_URL: 'http://127.0.0.1:9/',
    DATABASE_PATH: join(dir, 'visibility.db'),
    DEFAULT_TIMEZONE: 'Europe/Berlin',
    SLACK_OPS_CHANNEL: 'C0OPS42',
    RETENTION_MESSAGES_DAYS: '45',
  });
  deps = createAppDeps(config, { logger: captureLogger(config, []), api: {} as VisibilityApi });
  return deps;
}

describe('jobsDepsOf', () => {
  it("hands the jobs their settings and none of the process's secrets", () => {
    const app = build();
    const jobs = jobsDepsOf(app);

    expect(jobs.config).toEqual({
      defaultTimezone: 'Europe/Berlin',
      opsChannel: 'C0OPS42',
      retention: app.config.retention,
    });
    expect(jobs.config.retention.messagesDays).toBe(45);
    const settings = JSON.stringify(jobs.config);
    for (const secret of Object.values(SECRETS)) expect(settings).not.toContain(secret);
    expect(settings).not.toContain('visibility.db');
    expect(Object.keys(jobs)).not.toContain('brandCache');
    expect(Object.keys(jobs)).not.toContain('close');
    // The same parts, not copies: one store, one clock, one renderer for the process.
    expect(jobs.store).toBe(app.store);
    expect(jobs.clock).toBe(app.clock);
    expect(jobs.charts).toBe(app.charts);
    expect(jobs.database).toBe(app.database);
  });

  it('reads the Slack client only when a job first uses it', () => {
    const web = {} as WebClient;
    let reads = 0;
    const app = build();
    const source = Object.create(app, {
      web: {
        get() {
          reads += 1;
          return web;
        },
      },
    }) as AppDeps;

    const jobs = jobsDepsOf(source);
    expect(reads).toBe(0);
    expect(jobs.web).toBe(web);
    expect(reads).toBe(1);
  });
});
