/**
 * The tour shows what the README says it does: every subcommand, every citations view and
 * every crawler tab, read through the same parsers and lists the service uses, so a view
 * added to the product and not to the tour fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tourLines } from '../../../src/dev/demo/tour-lines.js';
import { brandAndVerb } from '../../../src/slack/commands/brand-and-verb.js';
import { isParseError, parseCommandText } from '../../../src/slack/commands/parse-command-text.js';
import { citationViewNames } from '../../../src/slack/features/citations/citation-usages.js';
import { parseCrawlerArgs } from '../../../src/slack/features/crawler/crawler-args.js';
import { crawlerVerbs } from '../../../src/slack/features/crawler/crawler-usages.js';
import { subcommands } from '../../../src/slack/routers/commands/registry.js';

const lines = tourLines(subcommands);
const commands = lines.filter((l) => l.startsWith('/visibility '));

/** The words after `/visibility <name>` of each tour line for that subcommand, as the router parses them. */
function positionalOf(name: string): string[][] {
  return commands
    .map((l) => parseCommandText(l.replace(/^\/visibility\s+/, '')))
    .flatMap((p) => (isParseError(p) || p.positional[0] !== name ? [] : [p.positional.slice(1)]));
}

describe('the tour', () => {
  it('runs every registered subcommand', () => {
    const names = new Set(commands.map((l) => l.split(/\s+/)[1]));
    for (const s of subcommands) expect(names, s.name).toContain(s.name);
  });

  it('shows every citations view the parser knows', () => {
    const shown = new Set(
      positionalOf('citations').map(
        (words) => brandAndVerb(words, new Set(citationViewNames)).verb ?? 'list',
      ),
    );
    expect([...shown].sort()).toEqual([...citationViewNames].sort());
  });

  it('shows every crawler tab the parser knows; the preview-fix tab through its button', () => {
    const typed = new Set(positionalOf('crawler').map((words) => parseCrawlerArgs(words).verb));
    const viaButton = new Set<string>();
    // Preview fix is pressed on the access findings, the way a person gets there.
    const access = lines.findIndex((l) => /^\/visibility crawler .* access$/.test(l));
    const press = lines.indexOf(':click Preview fix');
    expect(access).toBeGreaterThan(-1);
    expect(press).toBeGreaterThan(access);
    expect(lines.slice(access + 1, press).filter((l) => !l.startsWith('#'))).toEqual([]);
    viaButton.add('preview-fix');
    for (const verb of crawlerVerbs) expect(typed.has(verb) || viaButton.has(verb), verb).toBe(true);
    // The page drawer: a row's button right after the pages tab.
    const pages = lines.findIndex((l) => /^\/visibility crawler .* pages\b/.test(l));
    expect(lines[pages + 1]).toBe(':click Page details');
  });

  it('refreshes content ideas and waits for the refresh to complete', () => {
    const refresh = lines.findIndex((l) => /^\/visibility ideas .* refresh$/.test(l));
    expect(refresh).toBeGreaterThan(-1);
    expect(lines[refresh + 1]).toBe(':wait');
  });

  it('shows each command line once', () => {
    expect(new Set(commands).size).toBe(commands.length);
  });
});

describe('the README', () => {
  it('says what the tour shows: every subcommand, the six citation views, every crawler tab', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const start = readme.indexOf('`npm run demo -- --tour`');
    expect(start).toBeGreaterThan(-1);
    const tour = readme.slice(start, readme.indexOf('\n\n', start)).replace(/\s+/g, ' ');
    for (const s of subcommands) expect(tour, s.name).toMatch(new RegExp(`\\b${s.name}\\b`));
    expect(citationViewNames).toHaveLength(6);
    expect(tour).toContain('all six citation views');
    for (const verb of crawlerVerbs) {
      const word = verb === 'preview-fix' ? 'Preview fix' : verb;
      expect(tour, verb).toContain(word);
    }
    expect(tour).toContain('refresh and its completion');
  });
});
