/**
 * Random argument text for `ideas`, `citations`, `crawler` and `aipages` never breaks the
 * bot: every command gets one answer (its usage, a refusal, or the data), never the
 * "something went wrong" of an unexpected error, and Slack would accept every answer.
 * Run through the real router, API client and simulator, without the Slack HTTP hop so
 * hundreds of commands take seconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { unlimitedLimiter } from '../../src/api/limiter/unlimited-limiter.js';
import { type AppDeps, createAppDeps } from '../../src/app-deps.js';
import { loadConfig } from '../../src/config.js';
import { type RunningSimulator, SEED_BRANDS, startSimulator } from '../../src/dev/simulator/index.js';
import { createServiceLifecycle, type OwnedServiceLifecycle } from '../../src/service-lifecycle.js';
import { runCommand } from '../../src/slack/commands/run-command.js';
import { createIdeasSubcommand } from '../../src/slack/features/ideas/ideas.js';
import { createBackgroundWork } from '../../src/slack/kit/background-work.js';
import { type SlackDeps, slackDepsOf } from '../../src/slack/kit/slack-deps.js';
import { subcommands } from '../../src/slack/routers/commands/registry.js';
import { limitProblems } from '../slack/views/message-limit-problems.js';
import { captureLogger } from './service-harness.js';

let sim: RunningSimulator;
let appDeps: AppDeps;
let deps: SlackDeps;
let lifecycle: OwnedServiceLifecycle;
let dir: string;
const logLines: string[] = [];
// Refreshes started by random text are followed in milliseconds and end with the test.
const list = subcommands.map((s) =>
  s.name === 'ideas' ? createIdeasSubcommand({ refreshTiming: { pollIntervalMs: 5, timeoutMs: 50 } }) : s,
);

beforeAll(async () => {
  sim = await startSimulator({
    generationMs: 20,
    limits: { perMinute: 1_000_000, burst: 1_000_000, perDay: null, endpointPerMinute: 1_000_000 },
  });
  dir = mkdtempSync(join(tmpdir(), 'visibility-args-'));
  const config = loadConfig('serve', {
    VISIBILITY_API_URL: sim.url,
    VISIBILITY_API_KEY: sim.apiKey,
    SLACK_BOT_TOKEN: 'xoxb-test-token-0000',
    SLACK_SIGNING_SECRET: 'signing-secret-0000',
    DATABASE_PATH: join(dir, 'visibility.db'),
  });
  const logger = captureLogger(config, logLines);
  const api = new ApiClient({ baseUrl: sim.url, apiKey: sim.apiKey, limiter: unlimitedLimiter(), logger });
  appDeps = createAppDeps(config, { logger, api });
  lifecycle = createServiceLifecycle(logger);
  deps = slackDepsOf(appDeps, createBackgroundWork(lifecycle, logger));
});
afterAll(async () => {
  // Stops the refreshes' follow-ups and waits for them, as the service's shutdown does.
  await lifecycle.stop();
  await appDeps.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `/visibility <text>` and returns every reply it posted. */
interface Posted {
  text?: string;
  blocks?: Array<{ type?: string }>;
}

async function run(text: string): Promise<Posted[]> {
  const replies: Posted[] = [];
  const respond = (async (args: string | Posted) => {
    replies.push(typeof args === 'string' ? { text: args } : args);
  }) as unknown as RespondFn;
  await runCommand(
    deps,
    {
      text,
      userId: 'U0PROP',
      channelId: 'C0PROP',
      teamId: 'T0PROP',
      triggerId: '1.2.3',
      client: {} as WebClient,
      respond,
    },
    { subcommands: list, guestCheck: async () => {} },
  );
  return replies;
}

const brandWords = fc.constantFrom(
  '"Acme Analytics"',
  'acme analytics',
  'Acme',
  '"Northwind Outfitters"',
  'globex',
  'Initech',
  SEED_BRANDS.acmeLabs.id,
  '"Nobody Inc"',
  '',
);
const vocabulary = fc.constantFrom(
  'list',
  'history',
  'queries',
  'sources',
  'feed',
  'heatmap',
  'techcrunch.com',
  'https://x.example/a',
  'active',
  'dismissed',
  'implemented',
  'all',
  'refresh',
  'ping',
  'submit',
  'live',
  'pages',
  'access',
  'submit-status',
  'preview-fix',
  'fnd_x',
  '7d',
  '24h',
  '90d',
  '14d',
  '2025-01-01..2025-01-31',
  '2025-13-01..2025-01-01',
  '--limit',
  '--limit=0',
  '--limit 5',
  '--days 3',
  '--days 30',
  '--days-back 31',
  '--days-back 2',
  '--domain',
  '--domain www',
  '--prompt "best tool"',
  '--tags x',
  '--compare',
  '--view sessions',
  '--view nope',
  '--lens bots',
  '--status cited',
  '--status 404',
  '--intent search',
  '--intent nope',
  '--platform openai',
  '--search price',
  '--share',
  '"',
  '—limit 3',
  '<@U1>',
  'constructor',
  'valueOf',
  '--constructor x',
);
/** Words that make a valid command for each subcommand, so the data path is exercised too. */
const VALID: Record<string, string[]> = {
  ideas: ['', 'active', 'all --limit 5', 'dismissed', 'implemented --limit 200'],
  citations: [
    '',
    'list --limit 3',
    'history --days 30',
    'queries',
    'feed --days-back 2',
    'heatmap',
    'sources techcrunch.com',
  ],
  crawler: ['', '7d', '30d --compare', 'live --limit 3', 'pages --lens bots', 'access', 'submit-status'],
  aipages: [''],
};
const knownBrand = fc.constantFrom(
  '"Acme Analytics"',
  'globex',
  'Initech',
  '"Northwind Outfitters"',
  SEED_BRANDS.acme.id,
);

function argText(name: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.tuple(knownBrand, fc.constantFrom(...VALID[name]!)).map(([b, words]) => `${b} ${words}`),
    fc.tuple(brandWords, fc.array(vocabulary, { maxLength: 6 })).map(([b, words]) => [b, ...words].join(' ')),
    fc.string({ maxLength: 60 }),
    fc.string({ maxLength: 40, unit: 'binary' }),
  );
}

describe.each(['ideas', 'citations', 'crawler', 'aipages'])(
  '/visibility %s with random arguments',
  (name) => {
    it('always answers with usage, a refusal or data, never an unexpected error', async () => {
      let answeredWithData = 0;
      await fc.assert(
        fc.asyncProperty(argText(name), async (args) => {
          const replies = await run(`${name} ${args}`);
          expect(replies.length).toBeGreaterThanOrEqual(1);
          if (replies.some((r) => (r.blocks ?? []).some((b) => b.type === 'header'))) {
            answeredWithData += 1;
          }
          for (const r of replies) {
            expect(String(r.text)).not.toContain('Something went wrong on our side');
            expect(limitProblems({ text: String(r.text), blocks: r.blocks ?? [] })).toEqual([]);
          }
        }),
        { numRuns: 60 },
      );
      // The generator reaches real answers, not only usage errors.
      expect(answeredWithData).toBeGreaterThan(0);
      expect(logLines.filter((l) => l.includes('"handler failed"'))).toEqual([]);
    });
  },
);
