/**
 * Effectively-once delivery with real processes: `serve` and `run-job` running the same job
 * at the same time, and `run-job` killed (SIGKILL) after Slack accepted a post but before
 * the outbox marked it sent, and before another post was made. (In this order: the
 * scheduler runs a job only when no run started in its current slot.)
 */

import { describe, expect, it } from 'vitest';
import { runServe } from '../../src/cli/serve.js';
import { loadConfig } from '../../src/config.js';
import { schedulerExtension } from '../../src/jobs/scheduler-extension.js';
import { sqliteDbOf } from '../store/temp-db.js';
import { acme, messageText, northwind, useAlertsHarness } from './alerts-harness.js';
import { captureLogger } from './service-harness.js';

const h = useAlertsHarness();

const outboxStatuses = () =>
  (
    sqliteDbOf(h.deps.store).prepare('SELECT status FROM outbox ORDER BY id').all() as { status: string }[]
  ).map((r) => r.status);

describe('serve and run-job at once', () => {
  it('run the same job one after the other, and nothing is posted twice', async () => {
    const ch = h.channel('CBOTH');
    await h.command('subscribe "Globex Corporation" alerts', ch);
    // Slow AI Pages answers keep serve's run going while run-job starts.
    h.sim.control.injectFault({ kind: 'latency', ms: 3000, path: '/ai-pages', count: 1 });
    const aiPagesCalls = () => h.sim.requests.filter((r) => r.path === '/ai-pages').length;
    const before = aiPagesCalls();

    const config = loadConfig('serve', h.env);
    const serveLogs: string[] = [];
    const stop = new AbortController();
    const serving = runServe(config, {
      signal: stop.signal,
      handleSignals: false,
      overrides: { logger: captureLogger(config, serveLogs) },
      extensions: [
        schedulerExtension({
          pollCron: '* * * * * *',
          relayIntervalMs: 100,
          relay: { paceMs: 20 },
          brandGapMs: 0,
        }),
      ],
    });
    try {
      // serve's scheduler is inside the ai-pages job (its request is being delayed).
      await h.slack.waitFor(() => aiPagesCalls() > before, 15_000);
      const run = await h.runJobProcess('ai-pages');
      expect(run.code).toBe(0);
      // run-job waited for serve's run to end, then found nothing new to say.
      expect(run.stdout).toMatch(/^ai-pages: \d+ brands?, 0 alerts in 0 messages/m);
      await h.slack.waitFor(() => h.posts(ch).length > 0, 10_000);
      // serve's run has ended, and every message either run made is settled: the relay has
      // nothing left that it could post.
      await h.slack.waitFor(() => serveLogs.some((l) => l.includes('"msg":"ai-pages job ok"')), 10_000);
      await h.slack.waitFor(() => outboxStatuses().every((s) => s === 'sent' || s === 'failed'), 10_000);
      expect(outboxStatuses()).toEqual(['sent']);
      const notes = h.posts(ch).map(messageText);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toContain('AI Pages is not set up for Globex Corporation');
    } finally {
      stop.abort();
      expect(await serving).toBe(0);
    }
  });
});

describe('run-job killed mid-delivery', () => {
  it('never reposts what Slack accepted and posts once what it never got', async () => {
    const ch = h.channel('CCRASH');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    await h.command('subscribe "Northwind Outfitters" alerts', ch);
    const period = '2031-03-01T00:00:00Z';
    h.sim.control.setAiPagesUsage(acme.id, { percentageUsed: 85, resetDate: period });
    h.sim.control.setAiPagesUsage(northwind.id, { percentageUsed: 91, resetDate: period });

    // The first post is stored by Slack and never answered; the relay waits on it.
    h.slack.stallAfterAccept('chat.postMessage', 1);
    const first = h.spawnRunJob('ai-pages');
    await h.slack.waitFor(() => h.slack.calls.some((c) => c.stalled), 15_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect(h.posts(ch)).toHaveLength(1);
    // Both messages were claimed by the dead process: one accepted, one never sent.
    expect(outboxStatuses().filter((s) => s === 'sending')).toHaveLength(2);

    const postsBefore = h.slack.callsTo('chat.postMessage').length;
    const restart = await h.runJobProcess('ai-pages');
    expect(restart.stderr).toBe('');
    expect(restart.code).toBe(0);
    // It looked in the channel history before posting anything again.
    expect(h.slack.callsTo('conversations.history').length).toBeGreaterThanOrEqual(1);
    expect(h.slack.callsTo('chat.postMessage').length - postsBefore).toBe(1);
    const texts = h.posts(ch).map(messageText);
    expect(texts).toHaveLength(2);
    expect(texts.filter((t) => t.includes('Acme Analytics'))).toHaveLength(1);
    expect(texts.filter((t) => t.includes('Northwind Outfitters'))).toHaveLength(1);
    expect(outboxStatuses().every((s) => s === 'sent')).toBe(true);
  });
});
