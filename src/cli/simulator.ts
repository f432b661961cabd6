/**
 * `visibility-bot simulator [--port N]`: runs the API simulator alone until SIGINT or
 * SIGTERM, printing the URL, the API key it accepts and its control endpoint.
 */
import { startSimulator } from '../simulator/index.js';

const USAGE = `Usage: visibility-bot simulator [--port N]

Runs the Brand Visibility API simulator on 127.0.0.1 (default port 4010).
  --port N   port to listen on (0-65535; 0 = any free port)`;

export const DEFAULT_SIMULATOR_PORT = 4010;

export interface SimulatorCommandIo {
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown };
  /** Stops the simulator as SIGINT/SIGTERM would (tests, the demo). */
  stop?: AbortSignal;
}

type Parsed = { port: number } | { help: true } | { error: string };

function parseArgs(args: readonly string[]): Parsed {
  let port = DEFAULT_SIMULATOR_PORT;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--help' || arg === '-h') return { help: true };
    let value: string | undefined;
    if (arg === '--port') value = args[++i];
    else if (arg.startsWith('--port=')) value = arg.slice('--port='.length);
    else return { error: `Unknown argument "${arg}".` };
    if (value === undefined || !/^\d+$/.test(value) || Number(value) > 65_535) {
      return {
        error: `--port needs a whole number from 0 to 65535${value === undefined ? '' : `, not "${value}"`}.`,
      };
    }
    port = Number(value);
  }
  return { port };
}

export async function runSimulatorCommand(
  args: readonly string[],
  io: SimulatorCommandIo = {},
): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const parsed = parseArgs(args);
  if ('help' in parsed) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  if ('error' in parsed) {
    stderr.write(`${parsed.error}\n\n${USAGE}\n`);
    return 2;
  }

  let sim: Awaited<ReturnType<typeof startSimulator>>;
  try {
    sim = await startSimulator({ port: parsed.port });
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'EADDRINUSE') throw err;
    stderr.write(
      `Port ${parsed.port} is already in use (another simulator, or another program). Stop it, or pick another port: visibility-bot simulator --port N (0 = any free port).\n`,
    );
    return 1;
  }
  // Listen for the stop signals before printing the URL: whoever reads it may stop us at once.
  const stopped = new Promise<void>((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      io.stop?.removeEventListener('abort', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    if (io.stop?.aborted) done();
    else io.stop?.addEventListener('abort', done, { once: true });
  });
  stdout.write(
    [
      `Brand Visibility API simulator listening on ${sim.url}`,
      `  API key:  ${sim.apiKey}`,
      `  Control:  ${sim.url}/__control/state  (local test tool, no auth; see docs/simulator.md)`,
      '',
      'Point the bot at it with:',
      `  VISIBILITY_API_URL=${sim.url} VISIBILITY_API_KEY=${sim.apiKey}`,
      '',
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );

  await stopped;
  await sim.close();
  stdout.write('Simulator stopped.\n');
  return 0;
}
