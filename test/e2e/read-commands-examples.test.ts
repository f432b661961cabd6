/**
 * Every example `/visibility help` shows for ideas, citations, crawler and aipages runs
 * against the simulator's brands and answers with data, not a warning: the examples are
 * what people copy first.
 */
import { describe, expect, it } from 'vitest';
import { subcommands } from '../../src/slack/routers/commands/registry.js';
import { useReadHarness, visibleText } from './read-commands-harness.js';

const h = useReadHarness(
  {
    simulator: { generationMs: 20 },
    refreshTiming: { pollIntervalMs: 10, timeoutMs: 2000 },
  },
  { resetEach: false },
);

const examples = subcommands
  .filter((s) => ['ideas', 'citations', 'crawler', 'aipages'].includes(s.name))
  .flatMap((s) => s.examples.map((e) => [s.name, e.replace(/^\/visibility /, '')] as const));

describe('help examples', () => {
  it('covers every read subcommand', () => {
    expect(new Set(examples.map(([name]) => name))).toEqual(
      new Set(['ideas', 'citations', 'crawler', 'aipages']),
    );
  });

  it.each(examples)('%s: /visibility %s answers with data', async (_name, text) => {
    const { reply } = await h.command(text);
    expect(visibleText(reply)).not.toContain(':warning:');
    expect(visibleText(reply)).not.toMatch(/^No /);
  });
});
