/**
 * The CLI explains itself: `--help` shows every command and option the README's
 * "Commands" block shows, a mistyped command gets the nearest one, and `--help` after a
 * command prints help instead of running it. Each runs as the real CLI process.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

function cli(...args: string[]) {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: repo,
    // No configuration at all: help must not need any.
    env: { PATH: process.env['PATH'] ?? '' },
    encoding: 'utf8',
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** Each `npx visibility-bot …` line of the README's "Commands" block, without its comment. */
function readmeCommands(): string[] {
  const readme = readFileSync(`${repo}/README.md`, 'utf8');
  const block = /## Commands\n\n```text\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README.md has no "Commands" block');
  return block
    .split('\n')
    .filter((l) => l.startsWith('npx visibility-bot '))
    .map((l) => l.replace(/^npx visibility-bot /, '').replace(/\s+#.*$/, ''));
}

describe('visibility-bot --help', () => {
  const help = cli('--help');

  it('exits 0 and prints the usage on stdout', () => {
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: visibility-bot <command>/);
    expect(help.stderr).toBe('');
  });

  it('shows every command of the README exactly as the README writes it', () => {
    const commands = readmeCommands();
    expect(commands).toEqual(
      expect.arrayContaining([
        'demo --services-only [--port N] [--slack-port N] [--app-url URL]',
        'simulator [--port N] [--brands N]',
      ]),
    );
    for (const command of commands) expect(help.stdout).toContain(` ${command}`);
  });

  it('is what `help` and `-h` print too', () => {
    expect(cli('help').stdout).toBe(help.stdout);
    expect(cli('-h').stdout).toBe(help.stdout);
  });

  it.each([
    ['serve', '--help'],
    ['check', '-h'],
    ['run-job', '--help'],
    ['run-job', '-h'],
    ['migrate-store', '--help'],
  ])('`%s %s` prints the usage instead of running (no configuration needed)', (...args) => {
    const res = cli(...args);
    expect(res.status).toBe(0);
    expect(res.stdout).toBe(help.stdout);
    expect(res.stderr).toBe('');
  });

  it('`demo --help` and `simulator --help` print their own options', () => {
    const demo = cli('demo', '--help');
    expect(demo.status).toBe(0);
    expect(demo.stdout).toContain('--services-only');
    const simulator = cli('simulator', '--help');
    expect(simulator.status).toBe(0);
    expect(simulator.stdout).toContain('--brands N');
  });
});

describe('a command the CLI does not know', () => {
  it.each([
    ['chek', 'check'],
    ['serv', 'serve'],
    ['runjob', 'run-job'],
    ['simulater', 'simulator'],
    ['migrate', 'migrate-store'],
  ])('"%s" gets "did you mean %s?" and exit code 2', (typed, meant) => {
    const res = cli(typed);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(new RegExp(`^Unknown command "${typed}"\\. Did you mean "${meant}"\\?\\n`));
    expect(res.stderr).toContain('Usage: visibility-bot <command>');
  });

  it('with nothing close, gets the usage alone', () => {
    const res = cli('launch');
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/^Unknown command "launch"\.\n\nUsage:/);
  });

  it('a stray argument to serve or check is refused, not ignored', () => {
    const res = cli('check', '--slack-only');
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/^check takes no arguments \(got "--slack-only"\)\./);
  });
});
