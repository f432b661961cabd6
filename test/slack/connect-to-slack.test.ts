/**
 * Reaching Slack on its own, with the clock in the test's hands: a refused token fails the
 * start, anything else is retried with doubling pauses until it works, and a dropped
 * socket is reconnected by the same loop. The app is a scripted stand-in for Bolt's App
 * (its init/start), the connection state and the clock are the real ones.
 */
import { EventEmitter } from 'node:events';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createSlackConnector } from '../../src/slack/connect-to-slack.js';
import { createSlackConnection } from '../../src/slack/slack-connection.js';
import { manualClock } from '../helpers/manual-clock.js';

/** A Slack error as the Web API client throws it: `data.error` holds Slack's code. */
const slackSays = (code: string) =>
  Object.assign(new Error(`An API error occurred: ${code}`), { data: { error: code } });

function setUp(mode: 'http' | 'socket', initFailures: unknown[], startFailures: unknown[] = []) {
  const clock = manualClock(Date.parse('2025-03-10T09:00:00Z'));
  const connection = createSlackConnection(mode, clock);
  const calls: string[] = [];
  const app = {
    async init() {
      calls.push(`init@${clock.now()}`);
      const err = initFailures.shift();
      if (err) throw err;
    },
    async start() {
      calls.push(`start@${clock.now()}`);
      const err = startFailures.shift();
      if (err) throw err;
      connection.up();
    },
  };
  const socketClient = new EventEmitter();
  let readyCount = 0;
  let started = 0;
  const stop = new AbortController();
  const connector = createSlackConnector({
    slack: { app, mode, connection, markStarted: () => (started += 1), socketClient },
    clock,
    log: pino({ level: 'silent' }),
    retry: { first: 1000, max: 4000 },
    signal: stop.signal,
    onReady: () => (readyCount += 1),
  });
  const t0 = clock.now();
  return {
    clock,
    connection,
    calls,
    connector,
    socketClient,
    stop,
    t0,
    ready: () => readyCount,
    started: () => started,
  };
}

describe('createSlackConnector', () => {
  it('fails the start at once when Slack refuses the token', async () => {
    const s = setUp('http', [slackSays('invalid_auth')]);
    await expect(s.connector.connectOnce(true)).rejects.toMatchObject({ data: { error: 'invalid_auth' } });
    expect(s.calls).toHaveLength(1);
    expect(s.ready()).toBe(0);
  });

  it('retries an unreachable Slack with doubling pauses, at most the maximum, until it answers', async () => {
    const down = new Error('connect ECONNREFUSED');
    const s = setUp('http', [down, down, down, down]);
    await s.connector.connectOnce(true);
    expect(s.calls).toEqual([
      `init@${s.t0}`,
      `init@${s.t0 + 1000}`,
      `init@${s.t0 + 3000}`,
      `init@${s.t0 + 7000}`,
      `init@${s.t0 + 11_000}`,
    ]);
    expect(s.connection.snapshot()).toMatchObject({ state: 'connected' });
    expect([s.ready(), s.started()]).toEqual([1, 1]);
  });

  it('after the first try, a refusal is retried too (a token fixed later, Slack recovering)', async () => {
    const s = setUp('http', [new Error('timeout'), slackSays('invalid_auth')]);
    await s.connector.connectOnce(true);
    expect(s.calls).toHaveLength(3);
    expect(s.ready()).toBe(1);
  });

  it('in Socket Mode, initialises once and retries only the socket', async () => {
    const s = setUp('socket', [], [new Error('apps.connections.open failed')]);
    await s.connector.connectOnce(true);
    expect(s.calls).toEqual([`init@${s.t0}`, `start@${s.t0}`, `start@${s.t0 + 1000}`]);
    expect(s.connection.snapshot()).toMatchObject({ state: 'connected' });
  });

  it('reconnects a dropped socket after a pause, through the same loop', async () => {
    const s = setUp('socket', []);
    await s.connector.connectOnce(true);
    s.connection.down('disconnected');
    s.socketClient.emit('disconnected');
    await vi.waitFor(() => expect(s.calls).toHaveLength(3));
    expect(s.calls.at(-1)).toBe(`start@${s.t0 + 1000}`);
    expect(s.connection.snapshot()).toMatchObject({ state: 'connected' });
  });

  it('stops trying once the service stops', async () => {
    const s = setUp('http', [new Error('timeout'), new Error('timeout')]);
    s.stop.abort();
    await s.connector.connectOnce(true);
    expect(s.calls).toEqual([]);
    expect(s.ready()).toBe(0);
  });
});
