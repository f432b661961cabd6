/**
 * The demo end to end, in process: real simulator, local Slack and service; the console
 * driven by a script file, the tour or an input stream; stdout captured (not a TTY, so
 * plain text).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoOptions, runDemo } from '../../../src/cli/demo.js';
import type { RunJobs } from '../../../src/dev/demo/console-context.js';
import type { DemoStack } from '../../../src/dev/demo/start-demo-stack.js';
import { tourLines } from '../../../src/dev/demo/tour-lines.js';
import { SEED_BRANDS } from '../../../src/dev/simulator/index.js';
import { dayText } from '../../../src/figures/day-text.js';
import { CHANNEL_NOTE_EVENT } from '../../../src/slack/features/subscriptions/post-channel-note.js';
import { subcommands } from '../../../src/slack/routers/commands/registry.js';
import { utcDay } from '../../../src/utc-days.js';

const BRAND_NAMES = Object.values(SEED_BRANDS).map((b) => b.name);
const FAST = { quietMs: 100, followMs: 1500, replyTimeoutMs: 10_000 };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'demo-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

async function run(args: string[], options: DemoOptions = {}) {
  const out = capture();
  const err = capture();
  let stack: DemoStack | undefined;
  const code = await runDemo(args, {
    output: out.stream,
    errorOutput: err.stream,
    timing: FAST,
    // Not the repository's data/charts: each test's charts go to its temporary folder.
    chartsDirectory: join(dir, 'charts'),
    onStarted: (s) => {
      stack = s;
    },
    ...options,
  });
  return { code, output: out.text(), errors: err.text(), stack: stack! };
}

async function script(name: string, lines: string[]): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, lines.join('\n'));
  return file;
}

describe('demo --script', () => {
  it('staging a crawler fall says the change the crawler alert then reports', async () => {
    const file = await script('traffic.txt', [
      '/visibility subscribe "Acme Labs"',
      ':traffic "Acme Labs" 0.4',
      ':jobs crawler',
    ]);
    const { code, output } = await run(['--script', file]);
    expect(code).toBe(0);
    const staged = /are −(\d+) %\. A fall of 40 %/.exec(output)?.[1];
    const alerted = /=== Acme Labs: AI crawler visits down (\d+) % ===/.exec(output)?.[1];
    expect(staged).toBeDefined();
    expect(alerted).toBe(staged);
  });

  it('runs each line, echoed, and renders replies as plain text', async () => {
    const file = await script('basic.txt', [
      '# a comment, ignored',
      '',
      '/visibility brands',
      ':click 1',
      ':advance',
      ':usage acme 92',
      '/visibility subscribe "Acme Analytics"',
      ':traffic "Acme Labs" 0.4',
      ':jobs',
      ':click 999',
      ':bogus',
    ]);
    const { code, output, stack } = await run(['--script', file]);
    expect(code).toBe(0);
    // The banner names what runs and the brands.
    expect(output).toContain(stack.sim.url);
    expect(output).toContain(stack.appUrl);
    expect(output).not.toContain('a comment');
    expect(output).not.toContain('\x1b[');
    expect(output).toContain('visibility> /visibility brands');

    const brands = output.slice(
      output.indexOf('visibility> /visibility brands'),
      output.indexOf('visibility> :click 1'),
    );
    for (const name of BRAND_NAMES) expect(brands).toContain(name);
    expect(brands).toContain('[1] Details');

    // The click is a signed block action answered by the service.
    const click = output.slice(
      output.indexOf('visibility> :click 1'),
      output.indexOf('visibility> :advance'),
    );
    expect(click).toContain('Clicking [1] Details');
    expect(click).toContain('── visibility-bot');
    expect(stack.slack.responses.length).toBeGreaterThanOrEqual(2);

    const advance = output.slice(
      output.indexOf('visibility> :advance'),
      output.indexOf('visibility> :usage'),
    );
    expect(advance).toMatch(/next daily snapshot \(\d+ → \d+\)/);
    // The run's research day is named, and one ahead of the clock is explained.
    const researchDay = /the research of ([A-Z][a-z]{2} \d+, \d{4})\. What changed/.exec(advance)?.[1];
    expect(researchDay, advance).toBeDefined();
    if (researchDay !== dayText(utcDay(Date.now()))) {
      expect(advance).toContain(`every screen dates these figures ${researchDay}.`);
    }
    expect(advance).toMatch(/Acme Analytics: lost \d+ cited pages? \(https?:\/\//);

    expect(output).toContain('AI Pages usage of Acme Analytics is now 92 %');
    // Staged before anything was subscribed: the console says what to do first.
    expect(output).toContain(
      'no channel gets Acme Analytics alerts yet: /visibility subscribe "Acme Analytics" first',
    );
    expect(output).toMatch(
      /Crawler visits of Acme Labs are now ×0\.4 from \d{4}-\d{2}-\d{2} on: the 7 whole days to yesterday, which the crawler alert compares with the 7 days before, are −\d+ %/,
    );
    // Staged, never subscribed: :jobs names it and subscribes nothing on its own.
    expect(output).toContain('Acme Labs is staged but no channel is subscribed to it');
    expect(output).not.toContain('First, #general subscribes');
    // The real jobs ran: the staged 92 % usage is an AI Pages alert in #general.
    expect(output).toContain('── visibility-bot posted in #general');
    expect(output).toMatch(/The jobs ran: \d+ messages? posted or updated\./);
    expect(output).toContain('No button [999]');
    expect(output).toContain('Unknown command :bogus');
    expect(output).toContain('Stopped.');
  }, 60_000);

  it(':jobs with nothing subscribed says how to subscribe, and neither subscribes nor runs', async () => {
    const file = await script('unsubscribed.txt', [':usage acme 92', ':jobs']);
    let ran = 0;
    const { code, output, stack } = await run(['--script', file], {
      runJobs: async () => {
        ran += 1;
      },
    });
    expect(code).toBe(0);
    expect(output).toContain(
      'No channel is subscribed to a brand yet, so the jobs would have nobody to alert. Subscribe this one first: /visibility subscribe "Acme Analytics", then :jobs.',
    );
    expect(ran).toBe(0);
    // Nothing was subscribed: no note in the channel saying so, no subscribe command sent.
    expect(stack.slack.messages(stack.slack.defaultChannelId)).toEqual([]);
    expect(stack.handled()).toBe(0);
  }, 60_000);

  it('shows what the jobs post to channels, with clickable buttons', async () => {
    const file = await script('jobs.txt', [
      '/visibility subscribe "Acme Analytics"',
      ':jobs',
      ':click Snooze 24 h',
    ]);
    const runJobs: RunJobs = async (deps, job) => {
      await deps.web.chat.postMessage({
        channel: 'C0LOCALGEN',
        text: `Alert from the ${job} job`,
        blocks: [
          {
            type: 'section',
            text: { type: 'mrkdwn', text: `:warning: *Acme Analytics* alert from the ${job} job` },
          },
          {
            type: 'actions',
            elements: [
              {
                type: 'button',
                action_id: 'vis:snooze',
                text: { type: 'plain_text', text: 'Snooze 24 h' },
                value: 'x',
              },
            ],
          },
        ],
      });
    };
    const { code, output, stack } = await run(['--script', file], { runJobs });
    expect(code).toBe(0);
    expect(output).toContain('── visibility-bot posted in #general');
    expect(output).toContain('⚠️ Acme Analytics alert from the all job');
    expect(output).toContain('[1] Snooze 24 h');
    expect(output).toContain('The jobs ran: 1 message posted or updated.');
    expect(output).toContain('Clicking [1] Snooze 24 h');
    // The click went to the service (which handled it), from that channel message.
    // (The note saying who subscribed the channel comes before it; it is not an alert.)
    const posted = stack.slack
      .messages(stack.slack.defaultChannelId)
      .filter((m) => m.metadata?.event_type !== CHANNEL_NOTE_EVENT);
    expect(posted.at(0)?.text).toBe('Alert from the all job');
    // Handled: the `/visibility subscribe` typed first, then the click.
    expect(stack.handled()).toBe(2);
  }, 60_000);

  it('writes each chart the jobs upload to the charts folder and prints its path', async () => {
    const charts = join(dir, 'charts');
    // charts=image: the digest's chart goes as an uploaded image (Slack draws it otherwise).
    const file = await script('charts.txt', [
      '/visibility subscribe "Acme Analytics"',
      '/visibility settings "Acme Analytics" charts=image',
      ':jobs',
    ]);
    const { code, output, stack } = await run(['--script', file], { chartsDirectory: charts });
    expect(code).toBe(0);
    const uploaded = stack.slack.files();
    expect(uploaded.length).toBeGreaterThan(0);
    for (const chart of uploaded) {
      expect(chart.path?.startsWith(charts)).toBe(true);
      expect((await readFile(chart.path!)).equals(chart.bytes)).toBe(true);
      expect(output).toContain(`Chart "${chart.title}" written to ${relative(process.cwd(), chart.path!)}`);
    }
  }, 60_000);

  it('a chart click says where the chart went: the channel, and the file written for you to open', async () => {
    const charts = join(dir, 'click-charts');
    const file = await script('chart-click.txt', [
      '/visibility aipages "Acme Analytics"',
      ':click Post chart to channel',
      '/visibility help',
    ]);
    const { code, output, stack } = await run(['--script', file], { chartsDirectory: charts });
    expect(code).toBe(0);
    const click = output.slice(
      output.indexOf('visibility> :click Post chart to channel'),
      output.indexOf('visibility> /visibility help'),
    );
    const [chart] = stack.slack.files();
    expect(chart?.path?.startsWith(charts)).toBe(true);
    expect(click).toContain('── visibility-bot shared a chart in #general');
    expect(click).toContain('AI Pages usage · Acme Analytics, posted by @local.user');
    expect(click).toContain(`Chart "${chart!.title}" written to ${relative(process.cwd(), chart!.path!)}`);
    expect(click).not.toContain('changed nothing visible');
    // Said once, under the click: not again later.
    expect(output.split(`Chart "${chart!.title}" written`)).toHaveLength(2);
  }, 60_000);

  it('reports a job run that fails and carries on', async () => {
    const file = await script('failing-jobs.txt', [
      '/visibility subscribe "Acme Analytics"',
      ':jobs',
      '/visibility help',
    ]);
    const { code, output } = await run(['--script', file], {
      runJobs: async () => {
        throw new Error('boom');
      },
    });
    expect(code).toBe(0);
    expect(output).toContain('The jobs failed: boom');
    expect(output).toContain('visibility> /visibility help');
  }, 60_000);

  it('exits 1 when a line crashes the console, and stops there', async () => {
    const file = await script('crash.txt', [
      '/visibility subscribe "Acme Analytics"',
      ':jobs',
      '/visibility help',
    ]);
    const { code, output } = await run(['--script', file], {
      runJobs: async () => undefined,
      // No seam fails on its own here: the local Slack's message list breaks under the console.
      onStarted: (s) => {
        s.slack.messages = () => {
          throw new Error('boom');
        };
      },
    });
    expect(code).toBe(1);
    expect(output).toContain('The console failed on this line: boom');
    expect(output).not.toContain('visibility> /visibility help');
    expect(output).toContain('Stopped.');
  }, 60_000);

  it('fills a type-ahead brand select with the options the bot suggests for the typed text', async () => {
    // #general has no default brand: `markets add` opens the Add market form with a Brand select.
    const file = await script('type-ahead.txt', [
      '/visibility markets add',
      ':submit brand=acme country=JP',
      ':submit brand=zzzz country=JP',
      ':submit brand="acme analytics" country=JP',
    ]);
    const { code, output } = await run(['--script', file]);
    expect(code).toBe(0);
    const step = (line: string) => {
      const from = output.indexOf(`visibility> ${line}`);
      const to = output.indexOf('visibility> ', from + 1);
      return output.slice(from, to === -1 ? undefined : to);
    };
    const form = step('/visibility markets add');
    expect(form).toContain('Modal: Add market');
    expect(form).toContain(':submit brand=…');
    expect(form).not.toContain('vis:brand-select');
    expect(form).toContain('type-ahead: the bot suggests options as you type');
    // Two brands start with "acme": the console names them, as the open menu would, and sends nothing.
    const ambiguous = step(':submit brand=acme country=JP');
    expect(ambiguous).toMatch(
      /"acme" matches \d+ options of Brand: .*Acme Analytics.*"Acme Labs".*Type one in full\./,
    );
    expect(step(':submit brand=zzzz country=JP')).toContain('Brand suggests nothing for "zzzz".');
    // Typed in full (any case), the suggestion is picked and the form submits for that brand.
    const done = step(':submit brand="acme analytics" country=JP');
    expect(done).toContain('Submitted: the modal closed.');
    expect(done).toContain('Added the market Japan (JP) to Acme Analytics.');
  }, 60_000);

  it('refuses a missing script or an unknown option with exit 2', async () => {
    expect((await run(['--script', join(dir, 'missing.txt')])).code).toBe(2);
    const unknown = await run(['--frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.errors).toContain('Usage: visibility-bot demo');
  });
});

describe('colours', () => {
  it('are used only on a terminal that has them (tty hasColors() honours NO_COLOR)', async () => {
    const file = await script('help.txt', [':help']);
    const tty = (hasColors: boolean) =>
      Object.assign(new PassThrough(), { isTTY: true, hasColors: () => hasColors });
    const withColors = tty(true);
    const chunks: Buffer[] = [];
    withColors.on('data', (c: Buffer) => chunks.push(c));
    expect(await runDemo(['--script', file], { output: withColors })).toBe(0);
    expect(Buffer.concat(chunks).toString()).toContain('\x1b[1m');

    const noColors = tty(false);
    const plainChunks: Buffer[] = [];
    noColors.on('data', (c: Buffer) => plainChunks.push(c));
    expect(await runDemo(['--script', file], { output: noColors })).toBe(0);
    expect(Buffer.concat(plainChunks).toString()).not.toContain('\x1b[');
  }, 60_000);
});

describe('demo --tour', () => {
  it('runs every subcommand, view and tab, each answered by the bot, and exits 0', async () => {
    const { code, output } = await run(['--tour'], { timing: { ...FAST, backgroundMs: 40_000 } });
    expect(code).toBe(0);
    expect(output).toContain('visibility> /visibility help');
    for (const name of BRAND_NAMES) expect(output).toContain(name);
    expect(output).toContain('visibility> :home');
    expect(output).toContain('visibility> :advance');
    expect(output).toContain('visibility> :usage "Acme Analytics" 92');
    expect(output).toContain('visibility> :jobs');
    expect(output).not.toContain('The console failed');

    // Each line of the tour got a reply of its own, and none was a usage or service error.
    const steps = output.split(/\n(?=visibility> )/).slice(1);
    expect(steps).toHaveLength(tourLines(subcommands).filter((l) => !l.startsWith('#')).length);
    for (const step of steps) {
      const line = step.split('\n')[0]!;
      if (line.startsWith('visibility> /')) expect(step, line).toContain('── visibility-bot');
      expect(step, line).not.toMatch(
        /Usage: |Something went wrong|No button|nothing to click|nothing arrived/,
      );
    }
    const replyTo = (line: string) => {
      const at = output.indexOf(`visibility> ${line}`);
      expect(at, line).toBeGreaterThan(-1);
      return output.slice(at, output.indexOf('\nvisibility> ', at + 1));
    };
    // The refresh completes in the background; :wait shows its message updated.
    expect(replyTo(':wait')).toContain('Fresh content ideas for Acme Analytics are ready');
    expect(replyTo(':click Page details')).toContain('Page details · Acme Analytics');
    expect(replyTo(':click Preview fix')).toContain('Access fix preview · Acme Analytics');
    expect(replyTo('/visibility citations "Acme Analytics" heatmap')).toContain('── visibility-bot');
    // The jobs run while the brand is muted: their alerts are held, and the console says so.
    expect(replyTo(':jobs')).toContain('2 alert messages are held by a mute, a snooze or quiet hours');
    // unmute keeps its promise: what the mute held is posted now, without another job run
    // (the relay posts it; on a slow machine it may land just after the unmute's own reply).
    const afterUnmute = output.slice(output.indexOf('visibility> /visibility unmute'));
    expect(afterUnmute).toContain('The 2 held alert messages are being posted now, together.');
    expect(afterUnmute).toContain('alerts held during quiet hours or a mute');
    // The AI Pages alert says where usage is heading (which sentence depends on the day of
    // the billing period the tour runs on).
    expect(afterUnmute).toMatch(
      /At this pace (100 % on|about \d+ % by)|No forecast yet: this billing period/,
    );
    // What the bot says about who did what names them, never by a raw id.
    expect(output).toContain('@local.user subscribed this channel');
    expect(output).not.toMatch(/<@U|<#C|<!date\^/);
  }, 180_000);
});

describe('demo (interactive)', () => {
  it('reads standard input, stops at :quit, and exits 0 when input ends', async () => {
    const input = new PassThrough();
    input.end('/visibility brands\n:help\n:quit\n/visibility help\n');
    const { code, output } = await run([], { input });
    expect(code).toBe(0);
    expect(output).toContain('Acme Analytics');
    expect(output).toContain(':submit block.action=value');
    expect(output).not.toContain('visibility> /visibility help');

    const empty = new PassThrough();
    empty.end();
    expect((await run([], { input: empty })).code).toBe(0);
  }, 60_000);
});
