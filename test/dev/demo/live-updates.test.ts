/**
 * What Slack would show without anyone typing: the demo, in process against the real
 * simulator, local Slack and service, prints a completed content ideas refresh and an
 * alert posted to the channel when they land (above the prompt on a terminal), and `:wait`
 * catches a refresh in a script. Mentions and dates in real replies read as Slack shows them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoOptions, runDemo } from '../../../src/cli/demo.js';
import type { DemoStack } from '../../../src/dev/demo/start-demo-stack.js';
import { waitFor } from '../../../src/dev/local-slack/index.js';

const FAST = { quietMs: 100, followMs: 1500, replyTimeoutMs: 10_000, backgroundMs: 40_000 };
const REFRESH = '/visibility ideas "Acme Analytics" refresh';
const READY = 'Fresh content ideas for Acme Analytics are ready';
// The refresh polls every 10 s (the product's default); generous for a busy machine.
const LANDS_WITHIN_MS = 40_000;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'demo-live-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What a terminal shows, roughly: every control sequence (colours, cursor moves, line clears) removed. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts every control sequence.
const screenText = (s: string) => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

type Stream = PassThrough & { isTTY?: boolean; hasColors?: () => boolean };

function capture(stream: Stream = new PassThrough()): { stream: Stream; text: () => string } {
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

function start(args: string[], options: DemoOptions & { output?: Stream } = {}) {
  const out = capture(options.output);
  const done = runDemo(args, {
    timing: FAST,
    ...options,
    output: out.stream,
    errorOutput: new PassThrough(),
  });
  return { done, text: out.text };
}

describe('asynchronous updates', () => {
  it('prints a completed refresh when it lands, with no line typed after the command', async () => {
    const input = new PassThrough();
    const demo = start([], { input });
    input.write(`${REFRESH}\n`);
    await waitFor(() => demo.text().includes(READY), LANDS_WITHIN_MS);
    const output = demo.text();
    const typed = output.indexOf(`visibility> ${REFRESH}`);
    const generating = output.indexOf('Generating fresh content ideas for Acme Analytics');
    const updated = output.indexOf('── visibility-bot updated the message', generating);
    expect(typed).toBeGreaterThan(-1);
    expect(generating).toBeGreaterThan(typed);
    expect(updated).toBeGreaterThan(generating);
    expect(output.indexOf(READY)).toBeGreaterThan(updated);
    // The refreshed ideas' buttons are the ones :click presses now.
    input.end(':click 1\n');
    expect(await demo.done).toBe(0);
    const after = demo.text().slice(output.length);
    expect(after).toContain('visibility> :click 1');
    expect(after).not.toContain('There is nothing to click yet');
  }, 90_000);

  it('prints an alert posted to the channel while the console waits, its buttons clickable', async () => {
    const input = new PassThrough();
    let stack: DemoStack | undefined;
    const demo = start([], { input, onStarted: (s) => (stack = s) });
    input.write('/visibility help\n');
    await waitFor(() => demo.text().includes('── visibility-bot'), 20_000);
    const before = demo.text();
    // What the outbox relay does when a scheduled job found something: the bot's own Web API client posts.
    await stack!.deps.web.chat.postMessage({
      channel: stack!.slack.defaultChannelId,
      text: 'Acme Analytics lost a citation',
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: ':warning: *Acme Analytics* lost a citation, seen by <@U0LOCALUSR>' },
        },
        {
          type: 'actions',
          elements: [
            { type: 'button', action_id: 'demo:ack', text: { type: 'plain_text', text: 'Acknowledge' } },
          ],
        },
      ],
    });
    await waitFor(() => demo.text().includes('lost a citation'), 10_000);
    const news = demo.text().slice(before.length);
    expect(news).toContain('── visibility-bot in #general');
    expect(news).toContain('⚠️ Acme Analytics lost a citation, seen by @local.user');
    expect(news).toContain('[1] Acknowledge');
    expect(news).not.toContain('visibility> ');
    // Its button is what :click presses now, from that channel message.
    input.end(':click Acknowledge\n');
    expect(await demo.done).toBe(0);
    expect(demo.text().slice(before.length + news.length)).toContain('Clicking [1] Acknowledge');
  }, 60_000);

  it('draws the prompt and the half-typed line again below the news at a terminal', async () => {
    const input: Stream = Object.assign(new PassThrough(), { isTTY: true });
    const output: Stream = Object.assign(new PassThrough(), { isTTY: true, hasColors: () => false });
    const demo = start([], { input, output });
    input.write(`${REFRESH}\r`);
    await waitFor(() => demo.text().includes('Generating fresh content ideas'), 20_000);
    // Someone starts typing the next command and has not pressed Enter yet.
    input.write('/visibility bra');
    await waitFor(() => demo.text().includes(READY), LANDS_WITHIN_MS);
    await waitFor(() => screenText(demo.text()).trimEnd().endsWith('visibility> /visibility bra'), 5000);
    const screen = screenText(demo.text());
    const news = screen.lastIndexOf('── visibility-bot updated the message');
    // The line being typed was cleared before the news, and comes back after it, unharmed.
    expect(screen.slice(0, news)).toMatch(/visibility> \/visibility bra\s*$/);
    expect(screen.slice(news)).toMatch(/visibility> \/visibility bra$/);
    input.write('nds\r');
    await waitFor(() => demo.text().includes('Northwind Outfitters'), 20_000);
    input.end();
    expect(await demo.done).toBe(0);
  }, 90_000);

  it('in a script, :wait shows the refresh at the same place every run', async () => {
    const file = join(dir, 'wait.txt');
    await writeFile(file, [REFRESH, ':wait', '/visibility help'].join('\n'));
    const demo = start(['--script', file]);
    expect(await demo.done).toBe(0);
    const output = demo.text();
    const wait = output.indexOf('visibility> :wait');
    const help = output.indexOf('visibility> /visibility help');
    expect(output.indexOf(READY)).toBeGreaterThan(wait);
    expect(output.indexOf(READY)).toBeLessThan(help);
    expect(output.slice(0, wait)).not.toContain(READY);
  }, 90_000);
});

describe('Slack tokens in real replies', () => {
  it('shows who did it and when, as names and dates in the reader’s zone', async () => {
    const file = join(dir, 'tokens.txt');
    await writeFile(
      file,
      [
        '/visibility subscribe "Acme Analytics"',
        '/visibility mute "Acme Analytics" 2 hours',
        '/visibility status',
      ].join('\n'),
    );
    const demo = start(['--script', file], {
      onStarted: (stack) => {
        // The reader lives in Tokyo: times are shown there, as their Slack client would.
        stack.slack.addUser({
          id: stack.slack.defaultUserId,
          name: 'local.user',
          tz: 'Asia/Tokyo',
          isAdmin: true,
        });
      },
    });
    expect(await demo.done).toBe(0);
    const output = demo.text();
    expect(output).toContain('@local.user subscribed this channel to Acme Analytics');
    expect(output).not.toMatch(/<@U|<#C|<!date\^/);
    expect(output).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
    // Two hours from now, on the Tokyo clock (a 12-hour clock, as Slack shows it by default).
    const until = new Date(Date.now() + 2 * 3_600_000);
    const hour = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Tokyo', hour: 'numeric', hourCycle: 'h23' }).format(
        until,
      ),
    );
    const h12 = hour % 12 === 0 ? 12 : hour % 12;
    expect(output).toMatch(
      new RegExp(
        `muted alerts for Acme Analytics in this channel for 2 hours, until (Today|Tomorrow) at (${h12}|${(h12 % 12) + 1}):\\d\\d (AM|PM)`,
      ),
    );
  }, 90_000);
});
