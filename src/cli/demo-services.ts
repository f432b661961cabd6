/**
 * `visibility-bot demo --services-only`: the API simulator and the local Slack alone, on
 * fixed ports, for running the real `serve` (and `run-job`, `check`) in another terminal
 * without a Slack workspace. It prints the variables to set, echoes what the bot posts to
 * channels as it lands, and sends each line typed here to the bot as `/visibility <line>`,
 * printing the reply (and its later updates, such as a refresh completing). Mentions and
 * dates read as Slack shows them. Stops on Ctrl+C (or when standard input ends, or `stop` aborts).
 */
import { createInterface } from 'node:readline';
import { localSlackTokens } from '../dev/demo/local-slack-tokens.js';
import { type SlackActivity, startLocalSlack } from '../dev/local-slack/index.js';
import { startSimulator } from '../dev/simulator/index.js';
import { mrkdwnToTerminal } from '../terminal/mrkdwn-to-terminal.js';
import { createStyle } from '../terminal/style.js';

export const DEFAULT_SLACK_PORT = 4011;
export const DEFAULT_APP_URL = 'http://127.0.0.1:3000/slack/events';

interface ServicesOptions {
  simulatorPort: number;
  slackPort: number;
  appUrl: string;
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown };
  /** Lines to send as commands; default process.stdin. */
  input?: NodeJS.ReadableStream;
  stop?: AbortSignal;
}

const PLAIN = createStyle(false);

function portInUse(err: unknown): boolean {
  return (err as { code?: unknown } | undefined)?.code === 'EADDRINUSE';
}

type Simulator = Awaited<ReturnType<typeof startSimulator>>;
type LocalSlack = Awaited<ReturnType<typeof startLocalSlack>>;
type Out = { write(text: string): unknown };

/** Where the services listen and the variables that point `serve` at them. */
function servicesIntro(sim: Simulator, slack: LocalSlack, appUrl: string): string {
  return [
    'Local services for `visibility-bot serve` (no Slack workspace needed):',
    `  API simulator:  ${sim.url}`,
    `  Local Slack:    ${slack.url}  (channel ${slack.defaultChannelId}, user ${slack.defaultUserId})`,
    '',
    'In another terminal, set these and run the bot:',
    `  export VISIBILITY_API_URL=${sim.url}`,
    `  export VISIBILITY_API_KEY=${sim.apiKey}`,
    `  export SLACK_API_URL=${slack.url}`,
    `  export SLACK_BOT_TOKEN=${slack.botToken}`,
    `  export SLACK_SIGNING_SECRET=${slack.signingSecret}`,
    '  export DATABASE_PATH=data/local.db',
    '  npx visibility-bot check && npx visibility-bot serve',
    '',
    `Type a command here to send it to the bot at ${appUrl} as /visibility <command>,`,
    'e.g. `subscribe "Acme Analytics"`, then run `npx visibility-bot run-job all`: what the bot',
    'posts to channels is printed here. Ctrl+C stops.',
    '',
  ].join('\n');
}

/** Echoes what the bot posts to channels and its replies as they land; returns how to stop. */
function echoActivity(slack: LocalSlack, stdout: Out): () => void {
  // Mentions and dates read as Slack would show them to the local user.
  const tokens = localSlackTokens(slack, slack.defaultUserId);
  const readable = (text: unknown) => mrkdwnToTerminal(String(text ?? ''), PLAIN, tokens);
  // What the bot posts to channels (alerts, digests, notes) and its replies, as they arrive.
  return slack.onActivity((activity: SlackActivity) => {
    if (activity.kind === 'call') {
      const { call } = activity;
      if (call.method !== 'chat.postMessage' && call.method !== 'chat.update') return;
      const edited = call.method === 'chat.update' ? ' (updated)' : '';
      stdout.write(`[${String(call.args['channel'])}]${edited} ${readable(call.args['text'])}\n`);
      return;
    }
    // Only the commands typed here get response_urls in this mode: each reply is theirs,
    // the first and any later update (a content ideas refresh completing).
    const { post } = activity;
    const text = (post.body as { text?: unknown } | undefined)?.text;
    if (post.status !== 200 || typeof text !== 'string') return;
    stdout.write(`${readable(text)}\n`);
  });
}

/** Each typed line goes to the bot as `/visibility <line>`; the next waits for its reply. */
async function sendTypedLines(
  slack: LocalSlack,
  lines: AsyncIterable<string>,
  appUrl: string,
  stdout: Out,
): Promise<void> {
  for await (const raw of lines) {
    const text = raw.trim();
    if (text === '') continue;
    try {
      const res = await slack.slashCommand(appUrl, { text });
      if (res.status !== 200) {
        stdout.write(`The bot answered HTTP ${res.status}: is \`serve\` running at ${appUrl}?\n`);
        continue;
      }
      // Printed by the echo as it lands; the next line waits for it.
      await slack.waitFor(() => slack.responsesFor(res.responseUrlId)[0], 30_000);
    } catch (err) {
      stdout.write(
        `Could not reach the bot at ${appUrl} (${err instanceof Error ? err.message : String(err)}): is \`serve\` running there? Set its address with --app-url.\n`,
      );
    }
  }
}

export async function runDemoServices(options: ServicesOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  let sim: Simulator;
  try {
    sim = await startSimulator({ port: options.simulatorPort });
  } catch (err) {
    if (!portInUse(err)) throw err;
    stderr.write(
      `Port ${options.simulatorPort} (the API simulator) is already in use. Stop what uses it, or pick another port: --port N (0 = any free port).\n`,
    );
    return 1;
  }
  let slack: LocalSlack;
  try {
    slack = await startLocalSlack({ port: options.slackPort });
  } catch (err) {
    await sim.close();
    if (!portInUse(err)) throw err;
    stderr.write(
      `Port ${options.slackPort} (the local Slack) is already in use. Stop what uses it, or pick another port: --slack-port N (0 = any free port).\n`,
    );
    return 1;
  }

  const stopping = new AbortController();
  const stop = () => stopping.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (options.stop?.aborted) stop();
  else options.stop?.addEventListener('abort', stop, { once: true });

  stdout.write(servicesIntro(sim, slack, options.appUrl));

  const stopEcho = echoActivity(slack, stdout);

  const lines = createInterface({ input: options.input ?? process.stdin, terminal: false });
  stopping.signal.addEventListener('abort', () => lines.close(), { once: true });
  await sendTypedLines(slack, lines, options.appUrl, stdout);
  // Standard input ended (Ctrl+D, or started in the background): keep serving until stopped.
  if (!stopping.signal.aborted && options.input === undefined) {
    await new Promise<void>((resolve) => stopping.signal.addEventListener('abort', () => resolve()));
  }
  stop();
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  stopEcho();
  await slack.close();
  await sim.close();
  stdout.write('Stopped.\n');
  return 0;
}
