/**
 * The CLI as `npm run build` ships it (scripts/build-dist.mjs: one bundle, split at the
 * verbs, and `run-job` bundled again on its own) works as the sources do: `run-job` delivers and exits, `check` reaches the API
 * and Slack, `serve` answers a signed command, and the demo draws a chart in the bundled
 * worker thread. The other tests run the sources through tsx; this one runs what
 * operators run. `run-job` with nothing to do loads a few dozen modules, not hundreds.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackends } from '../e2e/service-harness.js';
import { spawnCollecting } from '../helpers/spawn-collecting.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const probe = fileURLToPath(new URL('../../bench/lib/report-process.mjs', import.meta.url));
const backends = useBackends();
// Inside node_modules, so the packages left out of the bundle resolve as they do from dist/.
const cache = join(repo, 'node_modules/.cache');
let out: string;
let main: string;

beforeAll(() => {
  mkdirSync(cache, { recursive: true });
  out = mkdtempSync(join(cache, 'visibility-bundle-'));
  execFileSync(process.execPath, ['scripts/build-dist.mjs', out], { cwd: repo, stdio: 'pipe' });
  main = join(out, 'main.js');
}, 120_000);
afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

async function run(args: string[], env: Record<string, string>, nodeArgs: string[] = []) {
  const { output, exited } = spawnCollecting(process.execPath, [...nodeArgs, main, ...args], {
    cwd: repo,
    env: { PATH: process.env['PATH'] ?? '', ...env },
  });
  return { code: await exited, out: output() };
}

describe('the bundled CLI', () => {
  it('writes the entry and the chart worker beside the chunks it loads', () => {
    const files = readdirSync(out);
    expect(files).toContain('main.js');
    expect(files).toContain('chart-worker.js');
    expect(files.every((f) => !f.includes('/'))).toBe(true);
  });

  it('bundles run-job on its own, with a chart worker beside it', () => {
    const files = readdirSync(join(out, 'run-job'));
    expect(files).toContain('run-job-verb.js');
    expect(files).toContain('chart-worker.js');
  });

  it('run-job all with nothing to do exits 0, loading a few dozen modules and no built-in it does not use', async () => {
    const env = { ...backends.env, DATABASE_PATH: join(backends.dir, 'bundle.db'), LOG_LEVEL: 'warn' };
    const { code, out: text } = await run(['run-job', 'all'], env, ['--import', probe]);
    expect(code, text).toBe(0);
    expect(text).toContain('delivery: 0 sent');
    const report = JSON.parse(/PROCESS-REPORT (\{.*\})/.exec(text)![1]!) as {
      modules: number;
      builtins: string[];
    };
    expect(report.modules).toBeGreaterThan(0);
    expect(report.modules).toBeLessThan(100);
    // Loaded on first use (hashing, chart threads, timing), or only by pino's transports.
    for (const unused of ['crypto', 'worker_threads', 'assert', 'perf_hooks'])
      expect(report.builtins).not.toContain(unused);
  }, 60_000);

  it('run-job writes its log lines and summary lines to stdout in the order they happen', async () => {
    const env = { ...backends.env, DATABASE_PATH: join(backends.dir, 'bundle-lines.db'), LOG_LEVEL: 'info' };
    const res = spawnSync(process.execPath, [main, 'run-job', 'all'], {
      cwd: repo,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      encoding: 'utf8',
    });
    expect(res.status, res.stderr).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    const jobs = ['citations', 'crawler', 'ai-pages', 'digest', 'weekly'];
    // Each job's log line (whole JSON, one per line), as it ends; then the summary, one line a job.
    const logged = lines.slice(0, jobs.length).map((l) => JSON.parse(l) as { job: string; msg: string });
    expect(logged.map((l) => l.msg).sort()).toEqual(jobs.map((j) => `${j} job ok`).sort());
    expect(lines.slice(jobs.length).map((l) => l.split(':')[0])).toEqual([...jobs, 'delivery']);
  }, 60_000);

  it('check reaches the API and Slack', async () => {
    const env = { ...backends.env, DATABASE_PATH: join(backends.dir, 'bundle.db') };
    const { out: text } = await run(['check'], env);
    expect(text).toContain('✓ API key works');
    expect(text).toMatch(/✓ Slack/);
  }, 60_000);

  it('serve answers a signed slash command and /healthz', async () => {
    const { child, output, exited } = spawnCollecting(process.execPath, [main, 'serve'], {
      cwd: repo,
      env: {
        PATH: process.env['PATH'] ?? '',
        ...backends.env,
        DATABASE_PATH: join(backends.dir, 'serve.db'),
        LOG_LEVEL: 'info',
      },
    });
    try {
      const url = await backends.slack.waitFor(
        () => /listening on (http:\/\/[\d.:]+)/.exec(output())?.[1],
        30_000,
      );
      // Slack's requests are answered once auth.test has passed, which serve logs.
      await backends.slack.waitFor(() => output().includes('Slack is reachable'), 30_000);
      const health = (await (await fetch(`${url}/healthz`)).json()) as { slack: { connected: boolean } };
      expect(health.slack.connected).toBe(true);
      const sent = await backends.slack.slashCommand(`${url}/slack/events`, { text: 'brands' });
      expect(sent.status).toBe(200);
      const reply = await backends.slack.waitFor(
        () => backends.slack.responsesFor(sent.responseUrlId)[0],
        30_000,
      );
      expect(reply.status).toBe(200);
      expect(JSON.stringify(reply.body)).toContain('Acme Analytics');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 90_000);

  it('the demo draws a chart in the bundled worker and posts the jobs’ alert', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'visibility-bundle-demo-'));
    try {
      const script = join(dir, 'script.txt');
      writeFileSync(
        script,
        [
          '/visibility aipages "Acme Analytics"',
          ':click Post chart',
          ':wait 15',
          '/visibility subscribe "Acme Analytics"',
          ':usage "Acme Analytics" 92',
          ':jobs',
        ].join('\n'),
      );
      const { output, exited } = spawnCollecting(process.execPath, [main, 'demo', '--script', script], {
        cwd: dir,
        env: { PATH: process.env['PATH'] ?? '' },
      });
      expect(await exited, output()).toBe(0);
      const text = output();
      expect(text).toMatch(/Chart "AI Pages usage · Acme Analytics" written to data\/charts\/.+\.png/);
      expect(text).toContain('AI Pages usage passed 90 %');
      expect(text).not.toContain('Something went wrong');
      expect(existsSync(join(dir, 'data/charts'))).toBe(true);
      expect(readdirSync(join(dir, 'data/charts')).some((f) => f.startsWith('ai-pages-usage-'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
