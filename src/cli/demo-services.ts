/**
 * `visibility-bot demo --services-only`: the API simulator and the local Slack alone, on
 * fixed ports, for running the real `serve` (and `run-job`, `check`) in another terminal
 * without a Slack workspace. It prints the variables to set, echoes what the bot posts to
 * channels, and sends each line typed here to the bot as `/visibility <line>`, printing
 * the reply. Stops on Ctrl+C (or when standard input ends, or `stop` aborts).
 */
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { startLocalSlack } from '../dev/local-slack/index.js';
import { startSimulator } from '../dev/simulator/index.js';

export const DEFAULT_SLACK_PORT = 4011;
export const DEFAULT_APP_URL = 'http://127.0.0.1:3000/slack/events';

export interface ServicesOptions {
  simulatorPort: number;
  slackPort: number;
  appUrl: string;
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown };
  /** Lines to send as commands; default process.stdin. */
  input?: NodeJS.ReadableStream;
  stop?: AbortSignal;
}

function portInUse(err: unknown): boolean {
  return (err as { code?: unknown } | undefined)?.code === 'EADDRINUSE';
}

export async function runDemoServices(options: ServicesOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  try {
    sim = await startSimulator({ port: options.simulatorPort });
  } catch (err) {
    if (!portInUse(err)) throw err;
    stderr.write(
      `Port ${options.simulatorPort} (the API simulator) is already in use. Stop what uses it, or pick another port: --port N (0 = any free port).\n`,
    );
    return 1;
  }
  let slack: Awaited<ReturnType<typeof startLocalSlack>>;
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

  stdout.write(
    [
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
      `Type a command here to send it to the bot at ${options.appUrl} as /visibility <command>,`,
      'e.g. `subscribe "Acme Analytics"`, then run `npx visibility-bot run-job all`: what the bot',
      'posts to channels is printed here. Ctrl+C stops.',
      '',
    ].join('\n'),
  );

  // What the bot posts to channels (alerts, digests), as it arrives.
  const echo = (async () => {
    let seen = 0;
    while (!stopping.signal.aborted) {
      const posts = slack.callsTo('chat.postMessage');
      for (const call of posts.slice(seen)) {
        stdout.write(`[${String(call.args['channel'])}] ${String(call.args['text'] ?? '')}\n`);
      }
      seen = posts.length;
      await delay(250, undefined, { signal: stopping.signal }).catch(() => undefined);
    }
  })();

  const lines = createInterface({ input: options.input ?? process.stdin, terminal: false });
  stopping.signal.addEventListener('abort', () => lines.close(), { once: true });
  for await (const raw of lines) {
    const text = raw.trim();
    if (text === '') continue;
    try {
      const res = await slack.slashCommand(options.appUrl, { text });
      if (res.status !== 200) {
        stdout.write(`The bot answered HTTP ${res.status}: is \`serve\` running at ${options.appUrl}?\n`);
        continue;
      }
      const reply = await slack.waitFor(() => slack.responsesFor(res.responseUrlId)[0], 30_000);
      stdout.write(`${String((reply.body as { text?: unknown }).text ?? '')}\n`);
    } catch (err) {
      stdout.write(
        `Could not reach the bot at ${options.appUrl} (${err instanceof Error ? err.message : String(err)}): is \`serve\` running there? Set its address with --app-url.\n`,
      );
    }
  }
  // Standard input ended (Ctrl+D, or started in the background): keep serving until stopped.
  if (!stopping.signal.aborted && options.input === undefined) {
    await new Promise<void>((resolve) => stopping.signal.addEventListener('abort', () => resolve()));
  }
  stop();
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  await echo;
  await slack.close();
  await sim.close();
  stdout.write('Stopped.\n');
  return 0;
}
