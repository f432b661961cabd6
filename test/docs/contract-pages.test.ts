/**
 * The docs/ pages are the contract inside the repository: what they name must exist, and
 * every variable the configuration reads must be documented where operators look for it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(repo, path), 'utf8');

/** Every file and folder under `dir`, as paths relative to the repository, folders ending in `/`. */
function walk(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((e) => {
    const path = relative(repo, join(repo, dir, e.name));
    return e.isDirectory() ? [`${path}/`, ...walk(path)] : [path];
  });
}

const tree = ['src', 'test', 'bench', 'scripts', 'docs', 'deploy'].flatMap(walk);

/**
 * A path the page names in backticks: from the repository's root (`src/jobs/`), from
 * `src/` (`jobs/scheduler.ts`), or from a folder the sentence is about (`actions/`).
 */
function names(path: string): boolean {
  if (existsSync(join(repo, path)) || existsSync(join(repo, 'src', path))) return true;
  return tree.some((p) => p.endsWith(`/${path}`));
}

const PAGES = [
  'docs/architecture.md',
  'docs/api.md',
  'docs/runtime-contract.md',
  'docs/alert-semantics.md',
  'docs/slack.md',
  'docs/simulator.md',
];

describe.each(PAGES)('%s', (page) => {
  it('names only paths that exist', () => {
    const paths = [...read(page).matchAll(/`([a-z][\w.-]*\/[\w./-]*)`/g)]
      .map((m) => m[1]!)
      .filter((p) => /\.(ts|mjs|cjs|md|json|ya?ml)$|\/$/.test(p) && !p.includes('://'));
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((p) => !names(p))).toEqual([]);
  });
});

it('every variable src/config.ts reads is in the README and the runtime contract', () => {
  const config = read('src/config.ts');
  const fields = config.slice(
    config.indexOf('const FIELDS = {'),
    config.indexOf('} as const;', config.indexOf('const FIELDS = {')),
  );
  const variables = [...fields.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);
  expect(variables).toContain('DATABASE_URL');
  for (const page of ['README.md', 'docs/runtime-contract.md']) {
    const text = read(page);
    expect({ page, missing: variables.filter((v) => !text.includes(`\`${v}\``)) }).toEqual({
      page,
      missing: [],
    });
  }
});

it('comments cite the docs pages, which exist, and never a file the repository does not hold', () => {
  const sources = ['src', 'test', 'bench', 'scripts'].flatMap(walk).filter((p) => /\.(ts|mjs|cjs)$/.test(p));
  const cited = new Set<string>();
  const outside: string[] = [];
  for (const path of sources) {
    const text = read(path);
    for (const m of text.matchAll(/\bdocs\/[\w-]+\.md\b/g)) cited.add(m[0]);
    if (/(?<![\w/])(DESIGN|STYLE|API)\.md\b/.test(text)) outside.push(path);
  }
  expect(outside).toEqual([]);
  expect([...cited].filter((page) => !existsSync(join(repo, page)))).toEqual([]);
  expect(cited).toContain('docs/alert-semantics.md');
});
