/**
 * What the service's lifecycle promises at shutdown, through the real process pieces:
 * serve starts its extensions once it listens, stops them only after the commands in
 * flight were answered, and closes the database only after they stopped; a refresh's
 * follow-up (work a command leaves running) is cancelled and polls no more.
 */

import { describe, expect, it } from 'vitest';
import type { AppDeps } from '../../src/app-deps.js';
import { runServe } from '../../src/cli/serve.js';
import { loadConfig } from '../../src/config.js';
import { type ServiceLifecycle, stopOnAbort } from '../../src/service-lifecycle.js';
import { sqliteDbOf } from '../store/temp-db.js';
import { useReadHarness } from './read-commands-harness.js';
import { captureLogger, useBackends } from './service-harness.js';

describe('serve and its extensions', () => {
  const backends = useBackends();

  it('starts an extension after listening, stops it after the acked command answered, then closes the database', async () => {
    const config = loadConfig('serve', backends.env);
    const lines: string[] = [];
    const abort = new AbortController();
    const events: string[] = [];
    let seen: AppDeps | undefined;
    let responseUrlId = '';
    const probe = (deps: AppDeps, lifecycle: ServiceLifecycle) => {
      seen = deps;
      events.push('extension started');
      lifecycle.waitFor(
        'probe',
        stopOnAbort(lifecycle.signal, async () => {
          const answered = backends.slack.responsesFor(responseUrlId).length;
          events.push(
            `extension stopping: ${answered} reply, database ${sqliteDbOf(deps.store).open ? 'open' : 'closed'}`,
          );
          // A part that takes a while to stop: shutdown must wait for it.
          await new Promise((r) => setTimeout(r, 50));
          events.push(`extension stopped: database ${sqliteDbOf(deps.store).open ? 'open' : 'closed'}`);
        }),
      );
    };
    const exits: number[] = [];
    let url = '';
    await new Promise<void>((resolve) => {
      void runServe(config, {
        signal: abort.signal,
        handleSignals: false,
        extensions: [probe],
        overrides: { logger: captureLogger(config, lines) },
        onListening: (u) => {
          url = u;
          events.push('listening');
          resolve();
        },
      }).then((code) => exits.push(code));
    });
    expect(events).toEqual(['extension started', 'listening']);

    // The API answers slowly: the command is still running when the shutdown starts.
    backends.sim.control.injectFault({ kind: 'latency', ms: 300, path: '/get-brands' });
    const res = await backends.slack.slashCommand(`${url}/slack/events`, { text: 'brands' });
    responseUrlId = res.responseUrlId;
    expect(backends.slack.responsesFor(responseUrlId)).toHaveLength(0);
    abort.abort();
    await backends.slack.waitFor(() => exits.length > 0, 5000);

    expect(exits).toEqual([0]);
    expect(events).toEqual([
      'extension started',
      'listening',
      'extension stopping: 1 reply, database open',
      'extension stopped: database open',
    ]);
    expect(seen ? sqliteDbOf(seen.store).open : undefined).toBe(false);
  });
});

describe('a refresh follow-up when the service stops', () => {
  const h = useReadHarness(
    {
      // The generation never ends within the test: only the shutdown ends the follow-up.
      simulator: { generationMs: 600_000 },
      refreshTiming: { pollIntervalMs: 20, timeoutMs: 600_000 },
    },
    { resetEach: false },
  );

  it('is cancelled by stop(): no poll after it, no further message, nothing logged as failed', async () => {
    const first = await h.command('ideas "Acme Analytics" refresh');
    expect(first.reply.text).toContain('Generating fresh content ideas');
    await h.slack.waitFor(() => h.requestsTo('/get-content-ideas', 'GET').length >= 2, 8000);

    await h.service.stop();
    // stop() waited for the follow-up to return, cancelled: it polls and posts nothing more.
    const ended = h.logLines.filter((l) => l.includes('stopped following the content ideas refresh'));
    expect(ended.map((l) => JSON.parse(l).outcome)).toEqual(['aborted']);
    expect(h.slack.responsesFor(first.responseUrlId)).toHaveLength(1);
    expect(h.logLines.join('')).not.toContain('background work failed');
    // The database is still open: closing it is the caller's next step.
    expect(sqliteDbOf(h.deps.store).open).toBe(true);
  });
});
