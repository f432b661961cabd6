/**
 * The real `serve` process posts held alerts when their hold is lifted, without a job run:
 * `unmute` and `quiet=off`, each typed as a slash command to the spawned process. The alerts
 * are written by the real `run-job` process while held; the post is waited for as it lands
 * in the local Slack, and a later `run-job` (which drains the outbox too) adds nothing. A
 * `run-job` started with the unmute races serve's relay for the same held row: still one post.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { spawnCollecting } from '../helpers/spawn-collecting.js';
import { HOUR_MS, isChannelNote, messageText, ROOT } from './alerts-harness.js';
import { type SpawnedServe, spawnServe, useBackends } from './service-harness.js';

const backends = useBackends();
let serve: SpawnedServe;
const { acme } = SEED_BRANDS;

beforeAll(async () => {
  serve = await spawnServe(backends);
}, 30_000);
afterAll(async () => {
  if (serve?.child.exitCode === null) {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
});

/** `/visibility <text>` to the spawned serve in `channel`; the first reply's text. */
async function command(text: string, channel: string): Promise<string> {
  const res = await backends.slack.slashCommand(`${serve.url}/slack/events`, { text, channelId: channel });
  expect(res.status).toBe(200);
  const reply = await backends.slack.waitFor(() => backends.slack.responsesFor(res.responseUrlId)[0], 10_000);
  return String((reply.body as { text?: unknown }).text);
}

/** The real `run-job ai-pages`, on serve's database; resolves with its exit code. */
function runJob(): { exited: Promise<number | null>; output: () => string } {
  return spawnCollecting(process.execPath, ['--import', 'tsx', 'src/main.ts', 'run-job', 'ai-pages'], {
    cwd: ROOT,
    env: { ...process.env, ...backends.env, LOG_LEVEL: 'warn' },
  });
}

/** The AI Pages alerts posted in `channel` (channel notes and other alerts left out). */
const usageAlerts = (channel: string) =>
  backends.slack
    .messages(channel)
    .filter((m) => m.via === 'chat.postMessage' && !isChannelNote(m))
    .filter((m) => messageText(m).includes('AI Pages usage passed'));

const setUsage = (percentageUsed: number) =>
  backends.sim.control.setAiPagesUsage(acme.id, { percentageUsed, resetDate: '2031-01-01T00:00:00Z' });

/** Subscribed while usage is low (serve's own ticks find nothing to alert), then held by `hold`. */
async function heldAlert(channel: string, hold: string): Promise<void> {
  backends.slack.addChannel({ id: channel, name: channel.toLowerCase(), isMember: true });
  setUsage(10);
  await command('subscribe "Acme Analytics" alerts', channel);
  await command(hold, channel);
  setUsage(85);
  const job = runJob();
  expect(await job.exited, job.output()).toBe(0);
  expect(usageAlerts(channel)).toEqual([]);
}

/** After the lift: serve alone posts it; a run-job afterwards drains again and posts nothing more. */
async function postedOnceByServe(channel: string): Promise<void> {
  await backends.slack.waitFor(() => usageAlerts(channel).length > 0, 20_000);
  const again = runJob();
  expect(await again.exited, again.output()).toBe(0);
  expect(usageAlerts(channel)).toHaveLength(1);
}

describe('serve releases held alerts when the hold is lifted', () => {
  it('unmute: serve posts them at once, and only once', async () => {
    const ch = 'CSERVEMUTE';
    await heldAlert(ch, 'mute "Acme Analytics" 1d');
    expect(await command('unmute "Acme Analytics"', ch)).toContain(
      'The held alert message is being posted now.',
    );
    await postedOnceByServe(ch);
  }, 90_000);

  it('quiet=off: serve posts them at once, and only once', async () => {
    const ch = 'CSERVEQUIET';
    const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    const now = Date.now();
    await heldAlert(
      ch,
      `settings "Acme Analytics" tz=UTC quiet=${hhmm(now - HOUR_MS)}-${hhmm(now + HOUR_MS)}`,
    );
    expect(await command('settings "Acme Analytics" quiet=off', ch)).toContain(
      'The held alert message is being posted now.',
    );
    await postedOnceByServe(ch);
  }, 90_000);

  it('unmute while a run-job drains the same outbox: still one post', async () => {
    const ch = 'CSERVERACE';
    await heldAlert(ch, 'mute "Acme Analytics" 1d');
    // Started with the unmute: its relay and serve's release the same held row.
    const racing = runJob();
    await command('unmute "Acme Analytics"', ch);
    await backends.slack.waitFor(() => usageAlerts(ch).length > 0, 20_000);
    expect(await racing.exited, racing.output()).toBe(0);
    const again = runJob();
    expect(await again.exited, again.output()).toBe(0);
    expect(usageAlerts(ch)).toHaveLength(1);
  }, 90_000);
});
