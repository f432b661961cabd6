/**
 * /metrics by Prometheus conventions, checked by Prometheus's own linter: a real scrape of
 * a running service (after a command, a button click and API calls) goes through
 * `promtool check metrics`. promtool comes from the Debian package `prometheus`; without
 * it the lint test fails in CI and is skipped elsewhere, saying so.
 */
import { spawnSync } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './service-harness.js';

const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
const havePromtool = promtool.status === 0;
const inCi = process.env['CI'] === 'true';
if (!havePromtool && !inCi) {
  console.warn(
    'metrics.test.ts: promtool not found, skipping the `promtool check metrics` test (install the Debian package "prometheus" to run it).',
  );
}

let h: Harness;
let scrape: string;

async function metricsText(): Promise<string> {
  const res = await fetch(`${h.service.url}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

beforeAll(async () => {
  h = await startHarness();
  const { responseUrlId } = await h.slack.slashCommand(h.appUrl, { text: 'markets "Acme Analytics"' });
  await h.slack.waitFor(() => h.slack.responsesFor(responseUrlId)[0], 5000);
  await h.slack.blockAction(h.appUrl, { actionId: 'vis:markets:add', responseUrlId });
  // The click's histogram sample lands after its listener finished.
  for (let i = 0; i < 500; i++) {
    scrape = await metricsText();
    if (scrape.includes('visibility_bot_action_duration_seconds_count')) break;
    await delay(10);
  }
});
afterAll(async () => {
  await h?.close();
});

describe('/metrics', () => {
  it.skipIf(!havePromtool && !inCi)('passes `promtool check metrics`', () => {
    expect(havePromtool, 'promtool is required in CI: apt-get install prometheus').toBe(true);
    const result = spawnSync('promtool', ['check', 'metrics'], { input: scrape, encoding: 'utf8' });
    expect(`${result.stdout}${result.stderr}`.trim()).toBe('');
    expect(result.status).toBe(0);
  });

  it('prefixes our metrics, types totals as counters and keeps units in names', () => {
    const types = new Map([...scrape.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!] as const));
    const ours = [...types.keys()].filter((n) => !/^(process|nodejs)_/.test(n));
    expect(ours.length).toBeGreaterThan(5);
    for (const name of ours) expect(name).toMatch(/^visibility_bot_/);
    for (const [name, type] of types) {
      if (name.endsWith('_total')) expect(type, name).toBe('counter');
      if (type === 'counter') expect(name, name).toMatch(/_total$/);
    }
    expect(types.get('visibility_bot_api_rate_limited_total')).toBe('counter');
    expect(types.get('visibility_bot_limiter_wait_seconds_total')).toBe('counter');
  });

  it('counts button clicks under `action` and commands under `subcommand`', () => {
    expect(scrape).toMatch(
      /visibility_bot_command_duration_seconds_count\{subcommand="markets",outcome="ok"\} 1/,
    );
    expect(scrape).toMatch(
      /visibility_bot_action_duration_seconds_count\{action="vis:markets:add",outcome="ok"\} 1/,
    );
    expect(scrape).not.toMatch(/subcommand="action:/);
  });

  it('counts 429s from the API as a counter that only grows', async () => {
    h.sim.control.injectFault({ kind: 'rate-limit', retryAfterSec: 0, path: '/get-brands' });
    h.deps.brandCache.invalidate();
    await h.deps.api.getBrands({}, { lane: 'interactive' }).catch(() => undefined);
    const after = await metricsText();
    const value = Number(/^visibility_bot_api_rate_limited_total (\S+)$/m.exec(after)?.[1]);
    expect(value).toBeGreaterThanOrEqual(1);
    const again = await metricsText();
    expect(Number(/^visibility_bot_api_rate_limited_total (\S+)$/m.exec(again)?.[1])).toBe(value);
  });
});

describe('METRICS_PORT', () => {
  let separate: Harness;
  beforeAll(async () => {
    separate = await startHarness({ env: { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' } });
  });
  afterAll(async () => {
    await separate?.close();
  });

  it('serves /metrics on its own port only, and /healthz stays on PORT', async () => {
    expect(separate.service.metricsUrl).not.toBe(separate.service.url);
    const metrics = await fetch(`${separate.service.metricsUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('visibility_bot_api_requests_total');
    expect((await fetch(`${separate.service.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${separate.service.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${separate.service.metricsUrl}/healthz`)).status).toBe(404);
  });
});
