/**
 * A local Slack over real HTTP: the Web API at `/api/<method>`, hosted response_urls at
 * `/response/<id>`, and a driver that sends signed requests to an app. Used by e2e tests,
 * the demo and benchmarks; nothing here is a mock of our own modules.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '../../clock.js';
import { AppDriver } from './app-driver.js';
import { FaultPlan } from './fault-plan.js';
import { FileStore } from './file-store.js';
import { FunctionExecutions } from './function-executions.js';
import { HostedResponseUrls } from './hosted-response-urls.js';
import { parseApiArgs } from './parse-api-args.js';
import type { LocalSlack, LocalSlackOptions, SlackActivity } from './types.js';
import { waitFor } from './wait-for.js';
import { WebApi } from './web-api.js';
import { DEFAULT_CHANNEL, DEFAULT_USER, Workspace } from './workspace.js';

/** Bodies larger than this are refused; Slack's own limits are far below it. */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The bytes POSTed to an upload URL: @slack/web-api sends them as multipart form data (one
 * file part), other clients as the raw body; Slack takes both.
 */
async function uploadedBytes(body: Buffer, contentType: string | undefined): Promise<Buffer> {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) return body;
  const form = await new Response(new Uint8Array(body), {
    headers: { 'content-type': contentType },
  }).formData();
  for (const value of form.values()) {
    if (typeof value !== 'string') return Buffer.from(await value.arrayBuffer());
  }
  return Buffer.alloc(0);
}

function send(res: ServerResponse, status: number, contentType: string, body: string, headers = {}): void {
  res.writeHead(status, { 'content-type': contentType, ...headers });
  res.end(body);
}

// Long by design: the local Slack's server wiring and the handle tests drive it by, one short method each.
export async function startLocalSlack(options: LocalSlackOptions = {}): Promise<LocalSlack> {
  const clock: Clock = options.clock ?? systemClock;
  const signingSecret = options.signingSecret ?? randomBytes(16).toString('hex');
  const botToken = options.botToken ?? `xoxb-local-${randomBytes(12).toString('hex')}`;
  const faults = new FaultPlan();
  const ws = new Workspace(
    {
      teamId: options.teamId ?? 'T0LOCAL01',
      teamDomain: 'local',
      teamName: 'Local Workspace',
      botUserId: options.botUserId ?? 'U0LOCALBOT',
      botId: 'B0LOCALBOT',
      botName: 'visibility-bot',
      appId: 'A0LOCALAPP',
    },
    clock,
    new FileStore({ directory: options.filesDirectory, onFile: options.onFile }),
    faults,
    new FunctionExecutions(options.functions),
  );
  const webApi = new WebApi(ws, clock, faults, botToken);
  const responseUrls = new HostedResponseUrls(ws, clock);
  let origin = '';
  const driver = new AppDriver({
    ws,
    responseUrls,
    signingSecret,
    signingClock: options.signingClock ?? systemClock,
    origin: () => origin,
  });
  const stalled = new Set<ServerResponse>();
  const listeners = new Set<(activity: SlackActivity) => void>();
  const notify = (activity: SlackActivity) => {
    for (const listener of listeners) {
      try {
        listener(activity);
      } catch {
        // A viewer's failure is its own; the app still gets Slack's answer.
      }
    }
  };

  const server = createServer((req, res) => {
    void route(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain', error instanceof Error ? error.message : 'error');
      else res.destroy();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const raw = req.method === 'POST' ? await readBody(req) : Buffer.alloc(0);
    const upload = url.pathname.match(/^\/upload\/v1\/([a-z0-9]+)$/);
    if (upload && req.method === 'POST') {
      const answer = ws.files.receive(upload[1]!, await uploadedBytes(raw, req.headers['content-type']));
      send(res, answer.status, 'text/plain; charset=utf-8', answer.body);
      return;
    }
    const body = raw.toString('utf8');
    const api = url.pathname.match(/^\/api\/([A-Za-z0-9._]+)$/);
    if (api && (req.method === 'POST' || req.method === 'GET')) {
      const parsed = parseApiArgs(
        body,
        req.headers['content-type'],
        url.searchParams,
        req.headers.authorization,
      );
      const answer = webApi.handle(api[1]!, parsed);
      notify({ kind: 'call', call: webApi.calls.at(-1)! });
      if (answer.drop) {
        // "Slack accepted it but we never saw the reply": the effect stays, the socket dies.
        req.socket.destroy();
        return;
      }
      if (answer.stall) {
        // Accepted, and the answer never comes: held until close() so the caller can be
        // killed while it still waits (crash between Slack's accept and our bookkeeping).
        stalled.add(res);
        res.on('close', () => stalled.delete(res));
        return;
      }
      send(
        res,
        answer.status,
        'application/json; charset=utf-8',
        JSON.stringify(answer.json),
        answer.headers,
      );
      return;
    }
    const hook = url.pathname.match(/^\/response\/([A-Za-z0-9]+)$/);
    if (hook && req.method === 'POST') {
      const answer = responseUrls.handle(hook[1]!, body);
      notify({ kind: 'response', post: responseUrls.posts.at(-1)! });
      send(res, answer.status, answer.contentType, answer.body);
      return;
    }
    send(res, 404, 'text/plain', 'not_found');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${host}:${address.port}`;
  ws.files.origin = origin;

  return {
    url: `${origin}/api/`,
    signingSecret,
    botToken,
    teamId: ws.identity.teamId,
    botUserId: ws.identity.botUserId,
    botId: ws.identity.botId,
    defaultUserId: DEFAULT_USER.id,
    defaultChannelId: DEFAULT_CHANNEL.id,
    calls: webApi.calls,
    callsTo: (method) => webApi.calls.filter((c) => c.method === method),
    messages: (channel) => ws.channelMessages(channel),
    ephemeralMessages: (userId) => ws.ephemeralMessages(userId),
    responses: responseUrls.posts,
    responsesFor: (id) => responseUrls.posts.filter((p) => p.responseUrlId === id),
    files: (channel) => ws.files.files.filter((f) => channel === undefined || f.channel === channel),
    views: () => [...ws.views.values()],
    view: (viewId) => ws.views.get(viewId),
    homeView: (userId) => {
      const id = ws.homeViewByUser.get(userId);
      return id ? ws.views.get(id) : undefined;
    },
    onActivity: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    userInfo: (userId) => {
      const user = ws.users.get(userId);
      return user ? { name: user.name, tz: user.tz } : undefined;
    },
    channelName: (channelId) => ws.channel(channelId)?.name,
    waitFor,
    addChannel: (c) => ws.addChannel(c),
    setChannelState: (id, s) => ws.setChannelState(id, s),
    addUser: (u) => ws.addUser(u),
    rateLimit: (method, o) =>
      faults.add(method, o.count, { kind: 'rate_limited', retryAfterSec: o.retryAfterSec }),
    failNext: (method, error, count = 1) => faults.add(method, count, { kind: 'error', error }),
    failAfterAccept: (method, count = 1) => faults.add(method, count, { kind: 'drop_after_accept' }),
    stallAfterAccept: (method, count = 1) => faults.add(method, count, { kind: 'stall_after_accept' }),
    refuseBlocks: (types) => faults.refuseBlocks(types),
    acceptBlocks: () => faults.acceptBlocks(),
    reset: () => {
      webApi.calls.length = 0;
      faults.clear();
      responseUrls.reset();
      ws.reset();
    },
    slashCommand: (appUrl, o) => driver.slashCommand(appUrl, o),
    blockAction: (appUrl, o) => driver.blockAction(appUrl, o),
    viewSubmission: (appUrl, o) => driver.viewSubmission(appUrl, o),
    blockSuggestion: (appUrl, o) => driver.blockSuggestion(appUrl, o),
    event: (appUrl, event) => driver.event(appUrl, event),
    executeFunction: (appUrl, o) => driver.executeFunction(appUrl, o),
    functionExecutions: () => [...ws.functions.runs.values()],
    sign: (body, timestampSec) => driver.sign(body, timestampSec),
    redeliverLast: (appUrl, o) => driver.redeliverLast(appUrl, o),
    lastRequest: () => driver.lastRequest(),
    postSigned: (appUrl, body, o) => driver.postSigned(appUrl, body, o),
    close: async () => {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
