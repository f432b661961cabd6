/**
 * The service's HTTP servers on real ports: /metrics where METRICS_PORT puts it and only
 * there, and Slack's requests answered 503 until Slack has been reached.
 */

import type { Server } from 'node:http';
import type { CustomRoute } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeServer,
  gateUntilReady,
  type ServiceServers,
  startServiceServers,
  urlOf,
} from '../../src/slack/service-servers.js';

const route = (path: string, body: string): CustomRoute => ({
  path,
  method: ['GET'],
  handler: (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(body);
  },
});
const routes = [route('/healthz', 'ok'), route('/metrics', 'metrics_total 1')];

let started: ServiceServers | undefined;
afterEach(async () => {
  const servers = [started?.server, started?.metricsServer].filter((s): s is Server => s !== undefined);
  for (const s of servers) await closeServer(s, 0);
  started = undefined;
});

const get = async (server: Server, path: string) => {
  const res = await fetch(`${urlOf(server)}${path}`);
  return { status: res.status, body: await res.text(), retryAfter: res.headers.get('retry-after') };
};

describe('startServiceServers', () => {
  it('serves every route on PORT when no METRICS_PORT is set', async () => {
    started = await startServiceServers(
      routes,
      { port: 0, metricsPort: undefined, metricsHost: undefined },
      undefined,
    );
    expect(started.metricsServer).toBeUndefined();
    expect(await get(started.server, '/healthz')).toMatchObject({ status: 200, body: 'ok' });
    expect(await get(started.server, '/metrics')).toMatchObject({ status: 200, body: 'metrics_total 1' });
    expect((await get(started.server, '/slack/events')).status).toBe(404);
  });

  it('moves /metrics to METRICS_PORT, and off PORT', async () => {
    started = await startServiceServers(
      routes,
      { port: 0, metricsPort: 0, metricsHost: '127.0.0.1' },
      undefined,
    );
    const { server, metricsServer } = started;
    expect(metricsServer).toBeDefined();
    expect(urlOf(metricsServer!)).not.toBe(urlOf(server));
    expect(await get(metricsServer!, '/metrics')).toMatchObject({ status: 200, body: 'metrics_total 1' });
    expect((await get(metricsServer!, '/healthz')).status).toBe(404);
    expect((await get(server, '/metrics')).status).toBe(404);
    expect((await get(server, '/healthz')).status).toBe(200);
  });

  it('fails the start when METRICS_PORT cannot be had', async () => {
    const taken = await startServiceServers(
      routes,
      { port: 0, metricsPort: undefined, metricsHost: undefined },
      undefined,
    );
    const busyPort = Number(new URL(urlOf(taken.server)).port);
    try {
      await expect(
        startServiceServers(routes, { port: 0, metricsPort: busyPort, metricsHost: '127.0.0.1' }, undefined),
      ).rejects.toThrow();
    } finally {
      await closeServer(taken.server, 0);
    }
  });
});

describe('gateUntilReady', () => {
  it('answers Slack 503 with Retry-After until ready, then hands requests to Bolt', async () => {
    let ready = false;
    const bolt = gateUntilReady(
      (_req, res) => {
        res.writeHead(200);
        res.end('routed');
      },
      () => ready,
    );
    started = await startServiceServers(
      routes,
      { port: 0, metricsPort: undefined, metricsHost: undefined },
      bolt,
    );
    expect(await get(started.server, '/slack/events')).toMatchObject({ status: 503, retryAfter: '5' });
    ready = true;
    expect(await get(started.server, '/slack/events')).toMatchObject({ status: 200, body: 'routed' });
    // /healthz never waits for Slack.
    expect((await get(started.server, '/healthz')).status).toBe(200);
  });

  it('answers 404 for a path Bolt throws on', async () => {
    const bolt = gateUntilReady(
      () => {
        throw new Error('no route');
      },
      () => true,
    );
    started = await startServiceServers(
      routes,
      { port: 0, metricsPort: undefined, metricsHost: undefined },
      bolt,
    );
    expect((await get(started.server, '/elsewhere')).status).toBe(404);
  });

  it('is nothing in Socket Mode, where Bolt has no request handler', () => {
    expect(gateUntilReady(undefined, () => true)).toBeUndefined();
  });
});
