/**
 * `visibility-bot simulator [--port N] [--brands N]`: runs the API simulator alone until SIGINT or
 * SIGTERM, printing the URL, the API key it accepts and its control endpoint.
 */
import { startSimulator } from '../dev/simulator/index.js';
import { MAX_SIMULATED_BRANDS } from '../dev/simulator/resolve-options.js';

const USAGE = `Usage: visibility-bot simulator [--port N] [--brands N]

Runs the Brand Visibility API simulator on 127.0.0.1 (default port 4010).
  --port N     port to listen on (0-65535; 0 = any free port)
  --brands N   brands in all (1-${MAX_SIMULATED_BRANDS}): the five seed brands, then generated
               ones, the same in every run (default 5)`;

export const DEFAULT_SIMULATOR_PORT = 4010;

interface SimulatorCommandIo {
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown };
  /** Stops the simulator as SIGINT/SIGTERM would (tests, the demo). */
  stop?: AbortSignal;
}

type Parsed = { port: number; brands: number | undefined } | { help: true } | { error: string };

const FLAG_RANGES = { port: [0, 65_535], brands: [1, MAX_SIMULATED_BRANDS] } as const;

function parseArgs(args: readonly string[]): Parsed {
  const values: { port: number; brands: number | undefined } = {
    port: DEFAULT_SIMULATOR_PORT,
    brands: undefined,
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--help' || arg === '-h') return { help: true };
    const flag = (['port', 'brands'] as const).find((f) => arg === `--${f}` || arg.startsWith(`--${f}=`));
    if (!flag) return { error: `Unknown argument "${arg}".` };
    const value = arg === `--${flag}` ? args[++i] : arg.slice(`--${flag}=`.length);
    const [min, max] = FLAG_RANGES[flag];
    if (value === undefined || !/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      return {
        error: `--${flag} needs a whole number from ${min} to ${max}${value === undefined ? '' : `, not "${value}"`}.`,
      };
    }
    values[flag] = Number(value);
  }
  return values;
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
    sim = await startSimulator({ port: parsed.port, brands: parsed.brands });
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
      `  Brands:   ${Math.max(5, parsed.brands ?? 5)}`,
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
