/**
 * `visibility-bot demo [--tour | --script FILE]`: zero config. Starts the API simulator,
 * a local Slack and the real service in this process, then a console that sends what you
 * type as signed Slack requests and renders the bot's replies in the terminal. With
 * `--tour` or `--script`, or when standard input ends, it exits by itself: 0, or 1 when
 * the stack cannot start or a line crashes the console.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { markActivity } from '../dev/demo/activity-mark.js';
import type { ConsoleContext, RunJobs } from '../dev/demo/console-context.js';
import { ConsoleInputError } from '../dev/demo/console-input-error.js';
import { createConsoleIo, type OutputStream } from '../dev/demo/console-io.js';
import { createConsoleState } from '../dev/demo/console-state.js';
import { demoBanner } from '../dev/demo/demo-banner.js';
import { DEFAULT_TIMING, type DemoTiming } from '../dev/demo/demo-timing.js';
import { followLiveUpdates } from '../dev/demo/follow-live-updates.js';
import { arrayLineSource, type LineSource, readlineLineSource } from '../dev/demo/line-source.js';
import { localSlackTokens } from '../dev/demo/local-slack-tokens.js';
import { runConsoleLine } from '../dev/demo/run-console-line.js';
import { type DemoStack, startDemoStack } from '../dev/demo/start-demo-stack.js';
import { tourLines } from '../dev/demo/tour-lines.js';
import { jobsDepsOf } from '../jobs/jobs-deps-of.js';
import { runJobs } from '../jobs/run-jobs.js';
import { subcommands } from '../slack/routers/commands/registry.js';
import { createStyle, type Style } from '../terminal/style.js';
import { DEFAULT_APP_URL, DEFAULT_SLACK_PORT, runDemoServices } from './demo-services.js';
import { DEFAULT_SIMULATOR_PORT } from './simulator.js';

export interface DemoOptions {
  /** Default process.stdout. */
  output?: NodeJS.WritableStream & { isTTY?: boolean; hasColors?: () => boolean };
  /** Where start failures go; default process.stderr. */
  errorOutput?: OutputStream;
  /** Lines for the interactive console; default process.stdin. */
  input?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Force colours on or off; default: only on a terminal that has them (see colorFor). */
  color?: boolean;
  timing?: Partial<DemoTiming>;
  /** Runs the scheduled jobs once; default src/jobs/run-jobs.ts, tests pass a stand-in. */
  runJobs?: RunJobs;
  /** Called once the stack runs (tests inspect what crossed the wire). */
  onStarted?: (stack: DemoStack) => void;
  /** Where each chart the bot uploads is written, for a person to open; default data/charts. */
  chartsDirectory?: string;
}

const USAGE = `Usage: visibility-bot demo [--tour | --script FILE]
       visibility-bot demo --services-only [--port N] [--slack-port N] [--app-url URL]
  --services-only  only the API simulator (--port, default ${DEFAULT_SIMULATOR_PORT}) and the local Slack
                   (--slack-port, default ${DEFAULT_SLACK_PORT}), for running \`serve\` against them; prints
                   what to set, and sends typed lines to the bot at --app-url (default ${DEFAULT_APP_URL})`;
const PROMPT = 'visibility> ';

type Mode =
  | { kind: 'interactive' }
  | { kind: 'tour' }
  | { kind: 'script'; file: string }
  | { kind: 'services'; simulatorPort: number; slackPort: number; appUrl: string };

function parsePort(flag: string, value: string | undefined): number | string {
  if (value === undefined || !/^\d+$/.test(value) || Number(value) > 65_535)
    return `${flag} needs a whole number from 0 to 65535.`;
  return Number(value);
}

function parseArgs(args: readonly string[]): Mode | string {
  let mode: Mode = { kind: 'interactive' };
  const services = {
    simulatorPort: DEFAULT_SIMULATOR_PORT,
    slackPort: DEFAULT_SLACK_PORT,
    appUrl: DEFAULT_APP_URL,
  };
  let servicesOnly = false;
  let serviceFlag: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--tour') mode = { kind: 'tour' };
    else if (arg === '--script' || arg.startsWith('--script=')) {
      const file = arg === '--script' ? args[++i] : arg.slice('--script='.length);
      if (!file) return '--script needs a file.';
      mode = { kind: 'script', file };
    } else if (arg === '--services-only') servicesOnly = true;
    else if (arg === '--port' || arg === '--slack-port') {
      const port = parsePort(arg, args[++i]);
      if (typeof port === 'string') return port;
      if (arg === '--port') services.simulatorPort = port;
      else services.slackPort = port;
      serviceFlag = arg;
    } else if (arg === '--app-url') {
      const url = args[++i];
      if (!url || !/^https?:\/\//.test(url))
        return '--app-url needs an http(s) URL such as http://127.0.0.1:3000/slack/events.';
      services.appUrl = url;
      serviceFlag = arg;
    } else return `Unknown option ${arg}.`;
  }
  if (servicesOnly) {
    if (mode.kind !== 'interactive') return '--services-only runs no console tour or script.';
    return { kind: 'services', ...services };
  }
  if (serviceFlag) return `${serviceFlag} goes with --services-only.`;
  return mode;
}

/**
 * Colours only on a terminal that has them. tty's hasColors() already honours NO_COLOR,
 * FORCE_COLOR and TERM=dumb, so the environment is not read here (config.ts is its only reader).
 */
function colorFor(output: DemoOptions['output']): boolean {
  return output?.isTTY === true && typeof output.hasColors === 'function' && output.hasColors();
}

async function linesOf(mode: Exclude<Mode, { kind: 'services' }>): Promise<string[] | undefined> {
  if (mode.kind === 'tour') return tourLines(subcommands);
  if (mode.kind === 'script') return (await readFile(mode.file, 'utf8')).split(/\r?\n/);
  return undefined;
}

/**
 * The console's loop: each line from the source is narration (the tour's `#` lines),
 * or a command run as typed. A failing line ends a script with 1; a person may go on.
 */
async function readLines(
  ctx: ConsoleContext,
  source: LineSource,
  tour: boolean,
  style: Style,
): Promise<number> {
  const { io } = ctx;
  let narrated = false;
  for (;;) {
    const raw = await source.next();
    if (raw === undefined) break;
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      // The tour's narration; a script's comments stay silent.
      if (tour) io.print(`\n${style.dim(line)}`);
      narrated = tour;
      continue;
    }
    // A person at a terminal sees what they typed; everyone else gets it echoed.
    if (!source.terminal) io.print(`${narrated ? '' : '\n'}${style.accent(`${PROMPT}${line}`)}`);
    narrated = false;
    try {
      if ((await runConsoleLine(ctx, line)) === 'quit') break;
    } catch (err) {
      if (err instanceof ConsoleInputError) {
        io.print(style.bad(err.message));
        continue;
      }
      io.print(
        style.bad(`The console failed on this line: ${err instanceof Error ? err.message : String(err)}`),
      );
      if (!source.interactive) return 1;
    }
  }
  return 0;
}

export async function runDemo(args: readonly string[], options: DemoOptions = {}): Promise<number> {
  const output = options.output ?? process.stdout;
  const errorOutput = options.errorOutput ?? process.stderr;
  if (args.includes('--help') || args.includes('-h')) {
    output.write(`${USAGE}\n`);
    return 0;
  }
  const mode = parseArgs(args);
  if (typeof mode === 'string') {
    errorOutput.write(`${mode}\n${USAGE}\n`);
    return 2;
  }
  if (mode.kind === 'services') {
    const { kind: _kind, ...services } = mode;
    return runDemoServices({ ...services, stderr: errorOutput });
  }
  let lines: string[] | undefined;
  try {
    lines = await linesOf(mode);
  } catch (err) {
    errorOutput.write(`Cannot read the script: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }

  const style = createStyle(options.color ?? colorFor(output));
  let stack: DemoStack;
  // Each chart is written here; the console names the file under the message that shares it.
  const chartsDirectory = options.chartsDirectory ?? join('data', 'charts');
  try {
    stack = await startDemoStack({ filesDirectory: chartsDirectory });
  } catch (err) {
    errorOutput.write(`The demo could not start: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  options.onStarted?.(stack);

  const input = options.input ?? process.stdin;
  const source: LineSource = lines
    ? arrayLineSource(lines, output)
    : readlineLineSource(input, output, PROMPT);
  const tokens = localSlackTokens(stack.slack, stack.slack.defaultUserId, () => stack.deps.clock.now());
  const io = createConsoleIo(output, style, source.interactive ? (q) => source.next(q) : undefined, tokens);
  const ctx: ConsoleContext = {
    stack,
    io,
    state: createConsoleState(markActivity(stack.slack)),
    timing: { ...DEFAULT_TIMING, ...options.timing },
    userId: stack.slack.defaultUserId,
    channelId: stack.slack.defaultChannelId,
    // One relay delivers everything, as in serve: the stack's, already running.
    runJobs: options.runJobs ?? ((deps, job) => runJobs(jobsDepsOf(deps), job, { deliver: stack.relay })),
  };
  const stopLive = followLiveUpdates(ctx, source);
  const stop = () => source.close();
  process.once('SIGTERM', stop);

  for (const line of demoBanner(stack, style)) io.print(line);
  let code = 0;
  try {
    code = await readLines(ctx, source, mode.kind === 'tour', style);
  } finally {
    process.off('SIGTERM', stop);
    stopLive();
    source.close();
    io.print(style.dim('\nStopping the service, the local Slack and the simulator…'));
    await stack.close();
    io.print(style.dim('Stopped.'));
  }
  return code;
}
