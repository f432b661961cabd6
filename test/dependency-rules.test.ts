/**
 * The rules in .dependency-cruiser.cjs bite: dependency-cruiser's own API cruises two tiny
 * source trees written to a temporary folder (laid out like src/, with the repository's
 * package.json and node_modules so packages resolve and classify as they do for real). The
 * first breaks one arrow per rule and must fail with exactly those rule names; the second
 * draws every arrow the layers allow and must pass, so the rules do not fire on what
 * docs/architecture.md permits.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('..', import.meta.url));
const made: string[] = [];

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/**
 * `imports` per file: each becomes one `import * as` line (`type:` before the specifier
 * makes it `import type`), and the file exports a constant that uses the value imports.
 */
function writeTree(tree: Record<string, string[]>): string {
  const dir = mkdtempSync(join(tmpdir(), 'dependency-rules-'));
  made.push(dir);
  for (const [file, imports] of Object.entries(tree)) {
    const lines = imports.map((spec, i) =>
      spec.startsWith('type:')
        ? `import type * as m${i} from '${spec.slice(5)}';\nexport type T${i} = typeof m${i};`
        : `import * as m${i} from '${spec}';`,
    );
    const uses = imports.flatMap((spec, i) => (spec.startsWith('type:') ? [] : [`m${i}`])).join(', ');
    lines.push(`export const value = [${uses}];`);
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), `${lines.join('\n')}\n`);
  }
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'fixture',
      type: 'module',
      dependencies: pkg['dependencies'],
      devDependencies: pkg['devDependencies'],
    }),
  );
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Each violation as "rule: from → to" (a package by its name). */
async function violations(dir: string): Promise<string[]> {
  const options = await extractDepcruiseOptions(join(repo, '.dependency-cruiser.cjs'));
  const tsConfigFile = join(repo, 'tsconfig.json');
  const { output } = await cruise(
    ['src'],
    { ...options, baseDir: dir, tsConfig: { fileName: tsConfigFile } },
    undefined,
    { tsConfig: extractTSConfig(tsConfigFile) },
  );
  const result = output as ICruiseResult;
  const short = (to: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(to)?.[1] ?? to;
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${short(v.to)}`).sort();
}

describe('dependency rules (.dependency-cruiser.cjs)', () => {
  it('fail a tree that breaks each arrow, naming the rule it breaks', async () => {
    const dir = writeTree({
      'src/main.ts': ['./cli/check.js', './cli/demo.js'],
      'src/cli/check.ts': ['../dev/demo/render.js', '../slack/commands/run-command.js', '../app-deps.js'],
      'src/cli/demo.ts': ['../dev/demo/render.js', '../terminal/style.js'],
      'src/dev/demo/render.ts': [],
      'src/slack/commands/run-command.ts': [
        '../../jobs/run-jobs.js',
        '../features/brands/brands.js',
        '../features/location/location.js',
        '../select-receiver.js',
      ],
      'src/slack/select-receiver.ts': ['../cli/check.js'],
      'src/slack/views/basic-blocks.ts': [],
      'src/slack/features/brands/brands.ts': ['../help/help.js'],
      'src/slack/features/help/help.ts': [],
      'src/slack/features/location/location.ts': ['../markets/markets.js'],
      'src/slack/features/markets/markets.ts': [],
      'src/jobs/run-jobs.ts': [
        '../slack/views/basic-blocks.js',
        '../store/outbox-repo.js',
        '../store/postgres/create-pool.js',
        'type:../app-deps.js',
      ],
      'src/store/outbox-repo.ts': ['../jobs/run-jobs.js', '../alerts/detect.js'],
      'src/store/postgres/create-pool.ts': ['pg'],
      'src/alerts/detect.ts': ['../messages/alert-message.js'],
      'src/messages/alert-message.ts': ['../api/client.js', 'node:fs', 'undici', '@slack/web-api'],
      'src/api/client.ts': ['./limiter.js', 'fast-check', './missing.js', './limiter/budget.js'],
      'src/figures/glossary.ts': ['../api/errors.js'],
      'src/api/errors.ts': [],
      'src/api/limiter.ts': ['./client.js'],
      'src/api/limiter/budget.ts': ['better-sqlite3', 'node:fs'],
      'src/api/unused.ts': [],
      'src/app-deps.ts': ['./slack/views/basic-blocks.js', './terminal/style.js'],
      'src/terminal/style.ts': ['../config.js'],
      'src/config.ts': ['./api/errors.js'],
    });
    expect(await violations(dir)).toEqual(
      [
        'slack-not-to-jobs: src/slack/commands/run-command.ts → src/jobs/run-jobs.ts',
        'jobs-not-to-slack: src/jobs/run-jobs.ts → src/slack/views/basic-blocks.ts',
        'core-not-to-surfaces: src/store/outbox-repo.ts → src/jobs/run-jobs.ts',
        'postgres-behind-store: src/jobs/run-jobs.ts → src/store/postgres/create-pool.ts',
        'pure-no-io: src/messages/alert-message.ts → src/api/client.ts',
        'pure-no-io: src/messages/alert-message.ts → fs',
        'pure-no-io: src/messages/alert-message.ts → undici',
        'pure-no-io: src/messages/alert-message.ts → @slack/web-api',
        'limiter-no-io: src/api/limiter/budget.ts → better-sqlite3',
        'limiter-no-io: src/api/limiter/budget.ts → fs',
        'layer-order: src/alerts/detect.ts → src/messages/alert-message.ts',
        'kernel-not-to-layers: src/app-deps.ts → src/slack/views/basic-blocks.ts',
        'dev-kit-off-product-path: src/cli/check.ts → src/dev/demo/render.ts',
        'cli-is-the-top: src/slack/select-receiver.ts → src/cli/check.ts',
        'no-feature-cycles: src/slack/features/brands/brands.ts → src/slack/features/help/help.ts',
        'no-feature-cycles: src/slack/features/location/location.ts → src/slack/features/markets/markets.ts',
        'terminal-is-a-leaf: src/terminal/style.ts → src/config.ts',
        'config-imports-only-the-kernel: src/config.ts → src/api/errors.ts',
        'app-deps-only-in-composition-root: src/jobs/run-jobs.ts → src/app-deps.ts',
        'no-circular: src/api/client.ts → src/api/limiter.ts',
        'no-circular: src/cli/check.ts → src/slack/commands/run-command.ts',
        'no-circular: src/jobs/run-jobs.ts → src/store/outbox-repo.ts',
        'no-orphans: src/api/unused.ts → src/api/unused.ts',
        'not-to-dev-dep: src/api/client.ts → fast-check',
        'not-to-unresolvable: src/api/client.ts → ./missing.js',
        'layer-order: src/figures/glossary.ts → src/api/errors.ts',
        // Inside src/slack, a shared contract reaching up to the features and the app.
        'slack-contracts-not-upwards: src/slack/commands/run-command.ts → src/slack/features/brands/brands.ts',
        'slack-contracts-not-upwards: src/slack/commands/run-command.ts → src/slack/features/location/location.ts',
        'slack-contracts-not-upwards: src/slack/commands/run-command.ts → src/slack/select-receiver.ts',
      ].sort(),
    );
  });

  it('pass a tree that draws every arrow the layers allow', async () => {
    const dir = writeTree({
      'src/main.ts': ['./cli/serve.js', './cli/demo.js', './cli/simulator.js', './cli/check.js'],
      'src/cli/serve.ts': ['../app-deps.js', '../slack/create-slack-app.js', '../jobs/scheduler.js'],
      'src/cli/demo.ts': ['../dev/demo/start-demo.js', './demo-services.js', '../terminal/style.js'],
      'src/cli/demo-services.ts': ['../dev/local-slack/index.js'],
      'src/cli/simulator.ts': ['../dev/simulator/index.js'],
      'src/cli/check.ts': ['../terminal/style.js', '../app-deps.js', '../messages/explain-error.js'],
      'src/terminal/style.ts': [],
      'src/dev/demo/start-demo.ts': [
        '../../app-deps.js',
        '../../slack/create-slack-app.js',
        '../../jobs/scheduler.js',
        '../../terminal/style.js',
      ],
      'src/dev/local-slack/index.ts': ['../../messages/mrkdwn.js', 'undici'],
      'src/dev/simulator/index.ts': ['../../api/schemas/brands.js', 'node:http'],
      'src/slack/create-slack-app.ts': [
        './features/brands/brands.js',
        '../use-cases/subscribe.js',
        '@slack/bolt',
      ],
      'src/slack/features/brands/brands.ts': [
        '../location/location.js',
        '../markets/markets.js',
        '../../views/basic-blocks.js',
      ],
      'src/slack/features/markets/markets.ts': ['../location/location.js', '../../../api/client.js'],
      'src/slack/features/location/location.ts': ['../../../store/subscriptions-repo.js'],
      'src/slack/views/basic-blocks.ts': ['../../messages/mrkdwn.js'],
      'src/jobs/scheduler.ts': [
        '../use-cases/subscribe.js',
        '../messages/alert-message.js',
        '../store/outbox-repo.js',
      ],
      'src/use-cases/subscribe.ts': [
        '../api/client.js',
        '../store/subscriptions-repo.js',
        '../alerts/detect.js',
      ],
      'src/messages/alert-message.ts': [
        '../alerts/detect.js',
        './mrkdwn.js',
        '../utc-days.js',
        '../figures/glossary.js',
      ],
      'src/figures/glossary.ts': ['./plural.js', '../utc-days.js'],
      'src/figures/plural.ts': [],
      'src/messages/explain-error.ts': ['../api/errors.js', './mrkdwn.js'],
      'src/messages/mrkdwn.ts': ['type:@slack/bolt', 'type:../api/client.js'],
      'src/alerts/detect.ts': ['../api/schemas/brands.js', '../utc-days.js', '../figures/glossary.js'],
      'src/store/subscriptions-repo.ts': ['../alerts/detect.js', 'better-sqlite3'],
      'src/store/outbox-repo.ts': ['./subscriptions-repo.js', './postgres/create-pool.js'],
      'src/store/postgres/create-pool.ts': ['pg'],
      'src/store/sqlite-budget-store.ts': [
        '../api/limiter/decide-take.js',
        'better-sqlite3',
        'node:timers/promises',
      ],
      'src/api/limiter/decide-take.ts': ['../../utc-days.js', 'type:better-sqlite3'],
      'src/api/client.ts': ['./errors.js', './schemas/brands.js', '../clock.js', 'undici'],
      'src/api/errors.ts': [],
      'src/api/schemas/brands.ts': ['zod'],
      'src/app-deps.ts': [
        './api/client.js',
        './store/subscriptions-repo.js',
        './store/postgres/create-pool.js',
        './store/sqlite-budget-store.js',
        './config.js',
        './clock.js',
      ],
      'src/config.ts': ['./plan-names.js', './database-url-secrets.js', 'zod'],
      'src/plan-names.ts': [],
      'src/database-url-secrets.ts': [],
      'src/clock.ts': ['node:timers/promises'],
      'src/utc-days.ts': [],
    });
    expect(await violations(dir)).toEqual([]);
  });
});
