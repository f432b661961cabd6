/**
 * Every log line is one JSON object with one key per field, at every depth: the service
 * answering commands and buttons, the jobs (in this process and as the real `run-job`
 * process) posting alerts, a Slack refusal and an API failure along the way. Lines are
 * parsed by a parser that rejects a repeated key, which JSON.parse would keep silently.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseStrictJson } from '../helpers/strict-json.js';
import { acme, useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness();

/** The lines that repeat a key, each with the error saying which. */
function repeatedKeys(lines: readonly string[]): string[] {
  const bad: string[] = [];
  for (const line of lines) {
    try {
      parseStrictJson(line);
    } catch (err) {
      bad.push(`${(err as Error).message}: ${line.slice(0, 300)}`);
    }
  }
  return bad;
}

const jsonLines = (output: string) => output.split('\n').filter((l) => l.startsWith('{'));

beforeAll(async () => {
  h.sim.control.setAiPagesUsage(acme.id, { percentageUsed: 85, resetDate: '2031-01-01T00:00:00Z' });
});

describe('log lines', () => {
  it('repeat no key while the service answers and the jobs post', async () => {
    const ch = h.channel('CLOGS');
    await h.command('subscribe "Acme Analytics"', ch);
    await h.command('brands', ch);
    await h.command('status', ch);
    await h.command('citations "Acme Analytics"', ch);
    await h.command('no-such-subcommand', ch);
    h.sim.control.injectFault({ kind: 'status', status: 500, path: '/get-brands', count: 4 });
    await h.command('brand "Acme Analytics"', ch);
    h.slack.failNext('chat.postMessage', 'invalid_blocks');
    await h.runJobs('all');
    expect(h.posts(ch).length).toBeGreaterThan(0);

    // The in-process lines come at debug level: every component logs something.
    const lines = h.logLines.map((l) => l.trim());
    expect(lines.length).toBeGreaterThan(50);
    expect(lines.some((l) => l.includes('"job":"ai-pages"'))).toBe(true);
    expect(repeatedKeys(lines)).toEqual([]);
  });

  it('repeat no key in the real run-job process', async () => {
    const ch = h.channel('CLOGS2');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    const run = await h.runJobProcess('all', { LOG_LEVEL: 'info' });
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.some((l) => l.includes('"job":"citations"'))).toBe(true);
    expect(repeatedKeys(lines)).toEqual([]);
  });
});
