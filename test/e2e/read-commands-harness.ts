/**
 * The real service between the API simulator and the local Slack (as service-harness.ts
 * starts it), with what the read-command tests need on top: simulator options (a short
 * content-ideas generation), the ideas subcommand with millisecond refresh polling, and
 * drivers that send a command or click a button and return what reached Slack.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { AppDeps } from '../../src/app-deps.js';
import type { LocalSlack, ResponseUrlPost } from '../../src/dev/local-slack/index.js';
import type { RecordedRequest, RunningSimulator, SimulatorOptions } from '../../src/dev/simulator/index.js';
import type { RunningService } from '../../src/slack/create-slack-app.js';
import { createIdeasSubcommand } from '../../src/slack/features/ideas/ideas.js';
import type { RefreshTiming } from '../../src/slack/features/ideas/refresh-timing.js';
import { subcommands } from '../../src/slack/routers/commands/registry.js';
import { startHarness } from './service-harness.js';

export interface ReplyBody {
  text: string;
  blocks: Array<Record<string, unknown>>;
  response_type?: string;
  replace_original?: boolean;
}

export interface ReadHarness {
  sim: RunningSimulator;
  slack: LocalSlack;
  deps: AppDeps;
  service: RunningService;
  appUrl: string;
  logLines: string[];
  /** `/visibility <text>`: the first reply on its response_url (which Slack must have accepted). */
  command(
    text: string,
    userId?: string,
  ): Promise<{ responseUrlId: string; reply: ReplyBody; post: ResponseUrlPost }>;
  /** Clicks a button of `reply` (found by action_id) and returns the first reply on the click's response_url. */
  click(
    reply: ReplyBody,
    actionId: string,
    userId?: string,
  ): Promise<{ responseUrlId: string; reply: ReplyBody }>;
  /** Requests to `path` (optionally with this method), in arrival order. */
  requestsTo(path: string, method?: string): RecordedRequest[];
  close(): Promise<void>;
}

export interface ReadHarnessOptions {
  simulator?: SimulatorOptions;
  env?: Record<string, string>;
  refreshTiming?: Partial<RefreshTiming>;
}

export const blockText = (reply: ReplyBody): string => JSON.stringify(reply.blocks);

/** Every text a person sees in the blocks, mrkdwn entities decoded, one per line. */
export function visibleText(reply: { blocks: unknown[] }): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'text' && typeof x === 'string') out.push(x);
        else walk(x);
      }
    }
  };
  walk(reply.blocks);
  return out
    .join('\n')
    .replace(/<!date\^[^|>]*\|([^>]*)>/g, '$1') // a date token reads as its date
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export interface TableCellBody {
  type: string;
  text?: string;
  value?: number;
  elements?: Array<{ elements?: Array<{ type: string; url?: string; text?: string }> }>;
}

/** The `data_table` blocks of a reply. */
export function dataTables(
  reply: ReplyBody,
): Array<{ caption: string; page_size?: number; rows: TableCellBody[][] }> {
  return reply.blocks.filter((b) => b['type'] === 'data_table') as never;
}

/** The web addresses the reply's tables link to, in order. */
export function tableLinks(reply: ReplyBody): string[] {
  return dataTables(reply).flatMap((t) =>
    t.rows.flatMap((row) => row.flatMap((cell) => cell.elements?.[0]?.elements?.[0]?.url ?? [])),
  );
}

/** A table cell as a reader sees it: its text, or a link cell as `<url|text>`. */
export function cellShown(cell: TableCellBody): string {
  const link = cell.elements?.[0]?.elements?.[0];
  return link?.type === 'link' ? `<${link.url}|${link.text}>` : (cell.text ?? '');
}

/** Row `index` (from 1; 0 is the header) of a reply's first table, each cell under its header. */
export function tableRow(reply: ReplyBody, index: number, table = 0): Record<string, string> {
  const rows = dataTables(reply)[table]?.rows ?? [];
  const header = (rows[0] ?? []).map(cellShown);
  return Object.fromEntries((rows[index] ?? []).map((cell, i) => [header[i] ?? String(i), cellShown(cell)]));
}

type ButtonBody = { action_id: string; value?: string; text: { text: string } };

/** The buttons of a reply: in actions blocks, and beside a section's text (its accessory). */
export function buttons(reply: ReplyBody): ButtonBody[] {
  return reply.blocks.flatMap((b) => {
    if (b['type'] === 'actions') return b['elements'] as ButtonBody[];
    const accessory = b['accessory'] as (ButtonBody & { type: string }) | undefined;
    return accessory?.type === 'button' ? [accessory] : [];
  });
}

export function buttonValue(reply: ReplyBody, actionId: string): Record<string, unknown> {
  const b = buttons(reply).find((x) => x.action_id === actionId);
  if (!b?.value) throw new Error(`no button ${actionId} in ${blockText(reply)}`);
  return JSON.parse(b.value) as Record<string, unknown>;
}

export async function startReadHarness(options: ReadHarnessOptions = {}): Promise<ReadHarness> {
  // This file runs in its own process: the registered ideas subcommand is swapped for one
  // that polls in milliseconds, and put back on close.
  const at = subcommands.findIndex((s) => s.name === 'ideas');
  const original = subcommands[at]!;
  if (options.refreshTiming)
    subcommands[at] = createIdeasSubcommand({ refreshTiming: options.refreshTiming });
  const { sim, slack, deps, service, appUrl, logLines, close } = await startHarness({
    simulator: options.simulator,
    env: options.env,
  }).catch((err: unknown) => {
    subcommands[at] = original;
    throw err;
  });

  const firstReply = async (responseUrlId: string) => {
    const post = await slack.waitFor(() => slack.responsesFor(responseUrlId)[0], 8000);
    // The local Slack validates blocks as Slack does: a rejected reply is a bug.
    expect(post.error, JSON.stringify(post.errors)).toBeUndefined();
    expect(post.status).toBe(200);
    return post;
  };

  return {
    sim,
    slack,
    deps,
    service,
    appUrl,
    logLines,
    async command(text, userId) {
      const res = await slack.slashCommand(appUrl, { text, ...(userId ? { userId } : {}) });
      expect(res.status).toBe(200);
      const post = await firstReply(res.responseUrlId);
      return { responseUrlId: res.responseUrlId, reply: post.body as ReplyBody, post };
    },
    async click(reply, actionId, userId) {
      const b = buttons(reply).find((x) => x.action_id === actionId);
      if (!b) throw new Error(`no button ${actionId} in ${blockText(reply)}`);
      const res = await slack.blockAction(appUrl, {
        actionId,
        ...(b.value !== undefined ? { value: b.value } : {}),
        ...(userId ? { userId } : {}),
      });
      expect(res.status).toBe(200);
      const post = await firstReply(res.responseUrlId);
      return { responseUrlId: res.responseUrlId, reply: post.body as ReplyBody };
    },
    requestsTo(path, method) {
      return sim.requests.filter((r) => r.path === path && (method === undefined || r.method === method));
    },
    async close() {
      await close();
      subcommands[at] = original;
    },
  };
}

/**
 * A read harness for every test of a file (or describe block): started before all, closed
 * after all, and with `resetEach` (default) the simulator and Slack reset before each test.
 * The object is filled in by beforeAll.
 */
export function useReadHarness(
  options: ReadHarnessOptions = {},
  { resetEach = true }: { resetEach?: boolean } = {},
): ReadHarness {
  const h = {} as ReadHarness;
  beforeAll(async () => {
    Object.assign(h, await startReadHarness(options));
  });
  afterAll(async () => {
    await h.close?.();
  });
  if (resetEach) {
    beforeEach(() => {
      h.slack.reset();
      h.sim.control.reset();
    });
  }
  return h;
}

/** The simulator's own answer to GET `path` (not through the bot). */
export async function simJson<T>(
  sim: RunningSimulator,
  path: string,
  query: Record<string, string>,
): Promise<T> {
  const res = await fetch(`${sim.url}${path}?${new URLSearchParams(query)}`, {
    headers: { authorization: `Bearer ${sim.apiKey}` },
  });
  return (await res.json()) as T;
}
