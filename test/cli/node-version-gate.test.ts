/**
 * An unsupported Node gets one sentence and exit code 2 from every way the CLI starts:
 * the built entry (the package's bin and `npm start` run dist/main.js) and `npm run demo`
 * (tsx src/main.ts). The built entry is bundled here from src/main.ts with the build's own
 * options, around a stand-in for the CLI that only says it was loaded: an old Node must
 * never get that far, a supported one must.
 *
 * Two kinds of "old Node": this Node told it is 20.11.1 or 22.18.0 (a preload rewrites
 * process.versions.node; always runs), and a real older Node when the machine has one at
 * /usr/bin/node (Debian's Node 20 on the CI image), which also proves the entry parses
 * and links there.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distBuildOptions } from '../../scripts/build-dist.mjs';
import { unsupportedNodeMessage } from '../../src/supported-node.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};
const CLI_LOADED = 'STAND-IN CLI LOADED';

/** A preload that makes this Node report another version. */
const pretend = (version: string) =>
  `data:text/javascript,Object.defineProperty(process.versions,"node",{value:${JSON.stringify(version)}})`;

const SYSTEM_NODE = '/usr/bin/node';
const systemNodeVersion = existsSync(SYSTEM_NODE)
  ? spawnSync(SYSTEM_NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
  : undefined;
/** The machine's own Node when it is one the bot does not support. */
const oldNode = systemNodeVersion && unsupportedNodeMessage(systemNodeVersion) ? SYSTEM_NODE : undefined;

let dir: string;

/**
 * dist/main.js as `npm run build` bundles it (scripts/build-dist.mjs, the same options),
 * with a stand-in for the CLI in place of cli/run-cli.ts: what an old Node parses and
 * links before the check runs is exactly what users get.
 */
async function buildEntry(into: string): Promise<void> {
  const standIn = join(into, 'stand-in-cli.mjs');
  writeFileSync(
    standIn,
    `export async function runCli(argv) { console.log(${JSON.stringify(CLI_LOADED)}, JSON.stringify(argv)); return 0; }\n`,
  );
  const options = distBuildOptions(join(into, 'dist'));
  await build({
    ...options,
    absWorkingDir: repo,
    entryPoints: { main: 'src/main.ts' },
    plugins: [
      {
        name: 'stand-in-cli',
        setup(b) {
          b.onResolve({ filter: /\/cli\/run-cli\.js$/ }, () => ({ path: standIn }));
        },
      },
    ],
  });
  chmodSync(join(into, 'dist', 'main.js'), 0o755);
  // The package's own start script, run by npm in this folder.
  writeFileSync(
    join(into, 'package.json'),
    JSON.stringify({ name: 'entry-under-test', type: 'module', scripts: { start: pkg.scripts['start'] } }),
  );
}

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: readonly string[], cwd: string, path = process.env['PATH']): Ran {
  const res = spawnSync(command, args, {
    cwd,
    env: { ...process.env, PATH: path, npm_config_update_notifier: 'false', LOG_LEVEL: 'fatal' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** The one sentence, as the first line on stderr, and the CLI never loaded. */
function expectTheSentence(ran: Ran, version: string): void {
  expect(ran.stderr.split('\n')[0]).toBe(unsupportedNodeMessage(version));
  expect(ran.stdout + ran.stderr).not.toContain(CLI_LOADED);
  expect(ran.stderr).not.toMatch(/SyntaxError|\n\s+at /);
  expect(ran.status).toBe(2);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'visibility-entry-'));
  await buildEntry(dir);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the built entry (bin, npm start)', () => {
  it('loads the CLI with its arguments on this supported Node', () => {
    const ran = run(process.execPath, ['dist/main.js', 'check'], dir);
    expect(ran.stdout).toContain(`${CLI_LOADED} ["check"]`);
    expect(ran.status).toBe(0);
  });

  it('stops this Node told it is 20.11.1 with the sentence and exit code 2', () => {
    const ran = run(process.execPath, ['--import', pretend('20.11.1'), 'dist/main.js', '--help'], dir);
    expect(ran.stderr).toBe(`${unsupportedNodeMessage('20.11.1')}\n`);
    expect(ran.stdout).toBe('');
    expectTheSentence(ran, '20.11.1');
  });
});

describe('npm run demo (tsx src/main.ts demo)', () => {
  it('stops this Node told it is 22.18.0 before the demo starts', () => {
    const ran = run(
      process.execPath,
      ['--import', 'tsx', '--import', pretend('22.18.0'), 'src/main.ts', 'demo'],
      repo,
    );
    expect(ran.stdout).toBe('');
    expect(ran.stderr.split('\n')[0]).toBe(unsupportedNodeMessage('22.18.0'));
    expect(ran.status).toBe(2);
  });
});

describe.skipIf(!oldNode)(`the machine's own Node ${systemNodeVersion} at ${SYSTEM_NODE}`, () => {
  // `node` on PATH is the old one, as for a user whose system Node is old.
  const oldPath = () => `${dirname(oldNode!)}:${process.env['PATH'] ?? ''}`;

  it('the bin (dist/main.js through its #! line) says the sentence', () => {
    expectTheSentence(run(join(dir, 'dist', 'main.js'), ['--help'], dir, oldPath()), systemNodeVersion!);
  });

  it('npm start says the sentence', () => {
    const ran = run('npm', ['start'], dir, oldPath());
    expect(ran.stdout).toContain(pkg.scripts['start']);
    expectTheSentence(ran, systemNodeVersion!);
  });

  it('npm run demo says the sentence', () => {
    const ran = run('npm', ['run', 'demo'], repo, oldPath());
    expect(ran.stdout).toContain('tsx src/main.ts demo');
    expectTheSentence(ran, systemNodeVersion!);
  });
});
