/**
 * What a Slack handler receives: the narrow SlackDeps (nothing that closes the process's
 * resources, no outbox client, no secrets), and per request only the API view is new: every call in
 * the interactive lane with the request's arrival time, the brand cache shared with the
 * service but fetching through that view.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import type { BrandsResponse } from '../../src/api/schemas/index.js';
import type { CallOptions, VisibilityApi } from '../../src/api/visibility-api.js';
import { type AppDeps, createAppDeps } from '../../src/app-deps.js';
import { loadConfig } from '../../src/config.js';
import { createServiceLifecycle } from '../../src/service-lifecycle.js';
import { createBackgroundWork } from '../../src/slack/kit/background-work.js';
import { requestDeps } from '../../src/slack/kit/request-deps.js';
import { slackDepsOf, slackServiceDepsOf } from '../../src/slack/kit/slack-deps.js';
import { register as registerEvents } from '../../src/slack/routers/events/index.js';
import { register as registerSubmissions } from '../../src/slack/routers/submissions/index.js';
import { captureLogger } from '../e2e/service-harness.js';
import { manualClock } from '../helpers/manual-clock.js';

/** getBrands answered by the test, recording the call options each call carried. */
function brandsApi() {
  const calls: Array<{ opts: CallOptions | undefined; answer(names: string[]): void }> = [];
  const api = {
    getBrands(_params: unknown, opts?: CallOptions) {
      return new Promise<BrandsResponse>((resolve) => {
        calls.push({
          opts,
          answer: (names) =>
            resolve({ brands: names.map((name) => ({ id: `id-${name}`, name })) } as BrandsResponse),
        });
      });
    },
  };
  // Only getBrands is called here; the request view wraps the other methods lazily.
  return { api: api as unknown as VisibilityApi, calls };
}

let dir: string | undefined;
let appDeps: AppDeps | undefined;
afterEach(async () => {
  await appDeps?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  appDeps = undefined;
  dir = undefined;
});

/** Bolt's listener registration, keeping each listener so the test can deliver a request to it. */
function listeningApp() {
  const listeners = new Map<string, (args: Record<string, unknown>) => Promise<void>>();
  const keep = (kind: string) => (_which: unknown, fn: (args: Record<string, unknown>) => Promise<void>) =>
    void listeners.set(kind, fn);
  return { app: { event: keep('event'), view: keep('view') } as unknown as App, listeners };
}

function setUp() {
  dir = mkdtempSync(join(tmpdir(), 'visibility-request-deps-'));
  const config = loadConfig('serve', {
    VISIBILITY_API_URL: 'http://127.0.0.1:9/',
    VISIBILITY_API_KEY: 'sk_live_00000000000000000000000000000000',
    SLACK_BOT_TOKEN: 'xoxb-test-token-0000',
    SLACK_SIGNING_SECRET: 'signing-secret-0000',
    DATABASE_PATH: join(dir, 'visibility.db'),
  });
  const logger = captureLogger(config, []);
  const { api, calls } = brandsApi();
  const clock = manualClock(5_000);
  appDeps = createAppDeps(config, { logger, api, clock });
  const deps = slackDepsOf(appDeps, createBackgroundWork(createServiceLifecycle(logger), logger));
  return { deps, calls, appDeps, clock };
}

describe('SlackDeps and the request view', () => {
  it('hands a handler neither close() nor the outbox client, and no secret of the config', () => {
    const { deps, appDeps: all } = setUp();
    expect(Object.keys(deps).sort()).toEqual(
      [
        'apiHealth',
        'api',
        'auditLog',
        'background',
        'brandCache',
        'charts',
        'clock',
        'config',
        'database',
        'deliveryNudge',
        'store',
        'logger',
        'metrics',
      ].sort(),
    );
    // The relay of this process hears the nudges the handlers give.
    expect(deps.deliveryNudge).toBe(all.deliveryNudge);
    expect('close' in deps).toBe(false);
    expect('web' in deps).toBe(false);
    expect(deps.store).toBe(all.store);
    // One renderer per process: the Chart buttons share the digest charts' bound.
    expect(deps.charts).toBe(all.charts);
    expect(deps.config).toEqual({
      adminUsers: [],
      defaultTimezone: 'UTC',
      retention: { messagesDays: 90, pollDataDays: 90, jobRunsDays: 90, auditDays: 365 },
    });
    const reachable = JSON.stringify(deps.config);
    for (const secret of [all.config.apiKey, all.config.slackBotToken, 'signing-secret-0000'])
      expect(reachable).not.toContain(secret);
  });

  it('builds the service from its Slack credentials and settings, without the API key or the database URL', () => {
    const { appDeps: all } = setUp();
    const service = slackServiceDepsOf(all);
    expect(Object.keys(service.config).sort()).toEqual(
      [
        'adminUsers',
        'defaultTimezone',
        'healthSlackGraceSeconds',
        'metricsHost',
        'metricsPort',
        'retention',
        'slackApiUrl',
        'slackAppToken',
        'slackBotToken',
        'slackSigningSecret',
      ].sort(),
    );
    expect(service.config.slackBotToken).toBe('xoxb-test-token-0000');
    expect(service.config.slackSigningSecret).toBe('signing-secret-0000');
    expect(JSON.stringify(service.config)).not.toContain(all.config.apiKey);
    expect('close' in service).toBe(false);
    expect('web' in service).toBe(false);
    expect(service.store).toBe(all.store);
  });

  it("sends a request's calls, brand lookups included, in the interactive lane ranked by its arrival", async () => {
    const { deps, calls } = setUp();
    const first = requestDeps(deps, 1_000);
    const second = requestDeps(deps, 2_000);
    expect(first.store).toBe(deps.store);
    expect(first.config).toBe(deps.config);
    expect(first.background).toBe(deps.background);

    // One cache for the service: the second request shares the first one's fetch.
    const lists = [first.brandCache.list(), second.brandCache.list()];
    expect(calls).toHaveLength(1);
    expect(calls[0]?.opts).toEqual({ lane: 'interactive', priority: 1_000, signal: undefined });
    calls[0]?.answer(['Acme']);
    for (const list of await Promise.all(lists)) expect(list.map((b) => b.name)).toEqual(['Acme']);
    expect((await deps.brandCache.list()).map((b) => b.name)).toEqual(['Acme']);
    expect(calls).toHaveLength(1);

    // A direct call keeps the request's place; an option it gives itself wins.
    void second.api.getBrands({});
    void second.api.getBrands({}, { lane: 'background' });
    expect(calls.slice(1).map((c) => c.opts)).toEqual([
      { lane: 'interactive', priority: 2_000, signal: undefined },
      { lane: 'background', priority: 2_000, signal: undefined },
    ]);
    // The service's own API is not changed by a request's view.
    void deps.api.getBrands({});
    expect(calls[3]?.opts).toBeUndefined();
  });

  it('gives the App Home and a modal submission the request view too: their calls name no lane yet rank by arrival', async () => {
    const { deps, calls, clock } = setUp();
    const { app, listeners } = listeningApp();
    registerEvents(app, deps, {
      guestCheck: async () => undefined,
      handlers: [{ name: 'brands', run: async (ctx) => void (await ctx.deps.api.getBrands({})) }],
    });
    registerSubmissions(app, deps, {
      handlers: [
        {
          callbackId: 'vis:test',
          run: async (ctx) => {
            await ctx.deps.api.getBrands({});
            return { close: true };
          },
        },
      ],
    });

    const home = listeners.get('event')!({ event: { tab: 'home', user: 'U1' }, client: {} });
    await expect.poll(() => calls.length).toBe(1);
    calls[0]?.answer([]);
    await home;
    clock.advance(1_000);
    const submission = listeners.get('view')!({
      ack: async () => undefined,
      body: { user: { id: 'U1' } },
      view: { callback_id: 'vis:test', state: { values: {} }, private_metadata: '', id: 'V1' },
      client: {},
    });
    await expect.poll(() => calls.length).toBe(2);
    calls[1]?.answer([]);
    await submission;

    expect(calls.map((c) => c.opts)).toEqual([
      { lane: 'interactive', priority: 5_000, signal: undefined },
      { lane: 'interactive', priority: 6_000, signal: undefined },
    ]);
  });
});
