/**
 * The arrows of docs/architecture.md ("Parts and the direction of dependencies") and
 * docs/architecture.md as rules the build checks: `npm run arch` (part of `npm test`)
 * fails with the name of the rule a new import breaks. Each rule's comment says what is
 * forbidden and why; read it before adding an exception.
 *
 * Layers, top to bottom (a layer may import the ones below it, never above or beside):
 *   main.ts, cli/                 verbs, the composition root (with app-deps.ts, which only the roots import)
 *   dev/                          the dev kit (simulator, local Slack, demo console)
 *   slack/ | jobs/                the two surfaces, side by side, never each other
 *   use-cases/                     use cases both surfaces share
 *   charts/                       chart specs and their rendering (SVG, PNG); below use-cases
 *   slack-client/                 the Slack Web API client options both surfaces use
 *   messages/ | store/            pure builders of outgoing messages | persistence
 *   alerts/                       pure detectors
 *   api/                          the API client, limiter, schemas, errors
 *   figures/                      the glossary and the one number, percent, date and plural wording
 *   config.ts, clock.ts, ...      the shared kernel (top-level files)
 *   terminal/                     mrkdwn as terminal text, for cli/ and dev/; imports nothing of ours
 */

/**
 * Packages that reach outside the process: databases, HTTP, Slack. Not anchored at ^:
 * where node_modules is a symlink, a package resolves to its real path.
 */
const IO_PACKAGES = '(^|/)node_modules/(better-sqlite3|undici|pg|@slack/)';
const IO_CORE_MODULES =
  '^(node:)?(fs|fs/promises|net|http|https|http2|tls|dgram|dns|dns/promises|child_process|cluster|worker_threads)$';
/** The API client's moving parts; its error classes and response schemas are plain data. */
const API_IO = '^src/api/(client|transport|visibility-api|with-call-defaults|parse-response|limiter/)';
/**
 * Tells "the database cannot be used right now" from other errors. A leaf that imports and
 * opens nothing, so every layer may use it: messages/ words the outage for users, the
 * surfaces back off on it. The one store module outside the layer order.
 */
const DATABASE_UNAVAILABLE = '^src/store/database-unavailable\\.ts$';

/**
 * The core folders bottom-up; folders in one entry sit side by side and import neither
 * each other. Above them: slack | jobs, then dev, then cli (rules below).
 */
const CORE_LAYERS = [['figures'], ['api'], ['alerts'], ['store', 'messages'], ['charts'], ['use-cases']];

/**
 * `layer-order`: a core folder imports only the core folders below it. With the rules for
 * slack, jobs, dev, cli and the kernel this makes the top-level folders a stack, so no
 * cycle between two of them can form (a module-level cycle check alone misses
 * folder A -> folder B -> folder A through different files).
 */
function layerOrder() {
  return CORE_LAYERS.flatMap((layer, rank) => {
    const notBelow = CORE_LAYERS.slice(rank).flat();
    return layer.flatMap((folder) => {
      const above = notBelow.filter((f) => f !== folder);
      return above.length === 0
        ? []
        : [
            {
              name: 'layer-order',
              severity: 'error',
              comment:
                `src/${folder} may import only the core folders below it ` +
                `(${CORE_LAYERS.slice(0, rank).flat().join(', ') || 'none: it is the bottom'}), the top-level ` +
                'kernel modules and packages. The core is a stack (figures < api < alerts < store, messages < ' +
                'use-cases); an upward or sideways import would let the top-level folders form a cycle. ' +
                'Move what both need down instead.',
              from: { path: `^src/${folder}/` },
              to: { path: `^src/(${above.join('|')})/`, pathNot: DATABASE_UNAVAILABLE },
            },
          ];
    });
  });
}

/**
 * Features other features may use, bottom-up (brands shows location and markets lines,
 * markets shows the location button). A feature imports only features listed before it;
 * a feature not listed imports any listed one. An order means no cycle between feature
 * folders can form.
 */
const SHARED_FEATURES = ['location', 'markets'];

function featureOrder() {
  const comment = (allowed) =>
    'Feature folders under src/slack/features must not depend on each other in a circle. ' +
    `This feature may import ${allowed.length ? `only ${allowed.join(', ')}` : 'no other feature'} ` +
    '(the order is SHARED_FEATURES in .dependency-cruiser.cjs). Move what two features ' +
    'share into slack/views or the plumbing, or extend the order if one feature truly builds ' +
    'on another.';
  const rule = (fromPath, allowed) => ({
    name: 'no-feature-cycles',
    severity: 'error',
    comment: comment(allowed),
    from: { path: fromPath },
    to: {
      path: '^src/slack/features/[^/]+/',
      pathNot: `^src/slack/features/(${['$1', ...allowed].join('|')})/`,
    },
  });
  return [
    ...SHARED_FEATURES.map((feature, i) =>
      rule(`^src/slack/features/(${feature})/`, SHARED_FEATURES.slice(0, i)),
    ),
    rule(`^src/slack/features/(?!(?:${SHARED_FEATURES.join('|')})/)([^/]+)/`, SHARED_FEATURES),
  ];
}

/**
 * Inside src/slack, a stack: the composition (the files at its top: the app, receivers,
 * HTTP routes) over the routers (slack/routers: each kind of request's registry and
 * dispatch) over the features (slack/features) over the contracts and helpers they share
 * (slack/actions, commands, events, steps, submissions) over the plumbing (slack/kit,
 * slack/views). Each layer imports only the ones below it.
 */
const SLACK_STACK = [
  ['composition', '^src/slack/[^/]+\\.ts$'],
  ['routers', '^src/slack/routers/'],
  ['features', '^src/slack/features/'],
  ['contracts', '^src/slack/(actions|commands|events|steps|submissions)/'],
  ['plumbing', '^src/slack/(kit|views)/'],
];

function slackLayerRules() {
  return SLACK_STACK.slice(1).map(([name, path], i) => ({
    name: `slack-${name}-not-upwards`,
    severity: 'error',
    comment:
      `src/slack is a stack (composition, routers, features, contracts, plumbing): the ${name} ` +
      'must not import a layer above them. Move what both need down, into the lower layer.',
    from: { path },
    to: {
      path: SLACK_STACK.slice(0, i + 1)
        .map(([, p]) => `(${p})`)
        .join('|'),
    },
  }));
}

module.exports = {
  forbidden: [
    ...slackLayerRules(),
    {
      name: 'slack-not-to-jobs',
      severity: 'error',
      comment:
        'src/slack must not import src/jobs. The Slack app and the scheduled jobs are two surfaces ' +
        'over the same core; what both need (subscribe with baseline, unmute with release, status) ' +
        'lives in src/use-cases, so either surface can change without breaking the other.',
      from: { path: '^src/slack/' },
      to: { path: '^src/jobs/' },
    },
    {
      name: 'jobs-not-to-slack',
      severity: 'error',
      comment:
        'src/jobs must not import src/slack. Jobs run without a Bolt app (run-job, the scheduler); ' +
        'they post through the outbox and the Slack Web API client, and share use cases with the ' +
        'Slack app only through src/use-cases, src/messages and the layers below.',
      from: { path: '^src/jobs/' },
      to: { path: '^src/slack/' },
    },
    {
      name: 'core-not-to-surfaces',
      severity: 'error',
      comment:
        'src/api, src/store, src/alerts, src/messages and src/use-cases are the core both surfaces ' +
        'build on: they must not import src/slack, src/jobs, src/cli or src/dev. An arrow upwards ' +
        'would tie the core to one surface (or to the dev kit) and make cycles possible.',
      from: { path: '^src/(figures|api|store|alerts|messages|charts|use-cases)/' },
      to: { path: '^src/(slack|jobs|cli|dev)/' },
    },
    {
      name: 'charts-no-io',
      severity: 'error',
      comment:
        'src/charts turns plain data into chart specs and pictures: it may import the kernel, ' +
        'src/alerts and src/messages (number formatting, wording) and the chart packages (vega, ' +
        'vega-lite, resvg, the fonts), never the database, the API client or the Slack SDK. The ' +
        'caller fetches the data and delivers the image, so the slack surface, the jobs and the ' +
        'demo can all draw the same chart, and its tests need no server.',
      from: { path: '^src/charts/' },
      to: {
        path: [
          IO_PACKAGES,
          '^src/(api|store|slack-client|terminal)/',
          '^src/app-deps\\.ts$',
          '^src/api-health\\.ts$',
        ],
      },
    },
    {
      name: 'pure-no-io',
      severity: 'error',
      comment:
        'src/figures (the glossary and wording), src/alerts (detectors) and src/messages (message ' +
        'builders) are pure functions of their ' +
        'input: at run time they load no database (src/store, better-sqlite3, pg), no API client, ' +
        'transport or limiter, no Slack SDK, no undici, no files or sockets (node:fs/net/http/...), ' +
        'no app-deps. That is what lets them be tested with plain data and reused by both ' +
        'surfaces. Pass the data in. (Type-only imports, e.g. Block Kit types, load nothing.)',
      from: { path: '^src/(figures|alerts|messages)/' },
      to: {
        dependencyTypesNot: ['type-only'],
        path: [
          IO_PACKAGES,
          IO_CORE_MODULES,
          API_IO,
          '^src/store/',
          '^src/app-deps\\.ts$',
          '^src/api-health\\.ts$',
        ],
        pathNot: DATABASE_UNAVAILABLE,
      },
    },
    {
      name: 'limiter-no-io',
      severity: 'error',
      comment:
        "src/api/limiter paces requests and decides over the key's shared budget with pure functions " +
        '(decide-take.ts, decide-reaction.ts); it loads no database driver and opens no file or ' +
        'socket. The budget is read and written through the BudgetStore seam, by the persistences ' +
        'in src/store (SQLite, Postgres) that the composition root hands in, so the arithmetic ' +
        'exists once whatever the storage, and its tests need no database.',
      from: { path: '^src/api/limiter/' },
      to: { dependencyTypesNot: ['type-only'], path: [IO_PACKAGES, IO_CORE_MODULES] },
    },
    {
      name: 'postgres-behind-store',
      severity: 'error',
      comment:
        'src/store/postgres is the Postgres backend of the store: only src/store (whose ' +
        'repository interfaces both backends implement) and the composition root (main.ts, ' +
        'src/cli, app-deps.ts, which pick the backend from DATABASE_URL) may import it. ' +
        'Everything else uses the repository interfaces, so it runs on SQLite and Postgres alike.',
      from: { path: '^src/', pathNot: '^src/(store/|cli/|main\\.ts$|app-deps\\.ts$)' },
      to: { path: '^src/store/postgres/' },
    },
    ...layerOrder(),
    {
      name: 'kernel-not-to-layers',
      severity: 'error',
      comment:
        'The shared top-level modules (config.ts, clock.ts, logger.ts, metrics.ts, utc-days.ts, ' +
        'backoff-delay.ts, countries.ts, time-zones.ts, closest-matches.ts, delivery-nudge.ts, api-health.ts, ' +
        'database-health.ts, guard-store.ts, sqlite-write-probe.ts, service-lifecycle.ts) sit under every ' +
        'layer: they must not import src/slack, src/jobs, src/use-cases, src/cli or src/dev. app-deps.ts, ' +
        'also a top-level file, builds the parts from the core below and is held to the same rule. ' +
        'Only main.ts, the entry, is above everything.',
      from: { path: '^src/[^/]+\\.ts$', pathNot: '^src/main\\.ts$' },
      to: { path: '^src/(slack|jobs|use-cases|cli|dev)/' },
    },
    {
      name: 'app-deps-only-in-composition-root',
      severity: 'error',
      comment:
        'src/app-deps.ts builds every part of the process (API client and key, database, Slack ' +
        'client and token, close()). Only the composition roots may import it: main.ts and src/cli ' +
        '(the verbs, which build it and hand each part its slice), and src/dev/demo (the demo ' +
        "verb's stack, which builds the same deps around the dev kit's doubles). A use case, job " +
        'or handler declares the interface it reads instead (as SlackDeps, JobDeps, StatusDeps ' +
        'do), and AppDeps satisfies it structurally: so nothing below the root depends on the ' +
        'root, or sees the secrets it holds.',
      from: { path: '^src/', pathNot: '^src/(main\\.ts$|app-deps\\.ts$|cli/|dev/demo/)' },
      to: { path: '^src/app-deps\\.ts$' },
    },
    {
      name: 'config-imports-only-the-kernel',
      severity: 'error',
      comment:
        'src/config.ts (the only reader of process.env) sits under every layer and runs first in ' +
        'every verb: it may import packages and other top-level kernel modules (plan-names.ts, ' +
        'database-url-secrets.ts), never a folder of ours. An import from api/ or above would tie ' +
        'the settings to that layer and load it wherever the config is read. Move what it needs ' +
        'down into the kernel instead.',
      from: { path: '^src/config\\.ts$' },
      to: { path: '^src/[^/]+/' },
    },
    {
      name: 'slack-client-below-surfaces',
      severity: 'error',
      comment:
        'src/slack-client configures the Slack Web API client that both the Slack app and the jobs ' +
        '(the outbox relay) post through: logging, metrics-instrumented fetch, retry settings. It ' +
        'must not import src/slack, src/jobs, src/use-cases, src/cli or src/dev, so either surface ' +
        'can use it without loading the other.',
      from: { path: '^src/slack-client/' },
      to: { path: '^src/(slack|jobs|use-cases|cli|dev)/' },
    },
    {
      name: 'terminal-is-a-leaf',
      severity: 'error',
      comment:
        'src/terminal turns Slack mrkdwn into terminal text for the CLI (check) and the demo ' +
        'console. It imports nothing else of ours but local-time-parts.ts (a leaf itself), so a verb ' +
        'that prints can use it without loading the Slack app, the jobs or the dev kit.',
      from: { path: '^src/terminal/' },
      to: { path: '^src/', pathNot: '^src/(terminal/|local-time-parts\\.ts$)' },
    },
    {
      name: 'dev-kit-off-product-path',
      severity: 'error',
      comment:
        'src/dev (API simulator, local Slack, demo console) is a test double and a demo, not the ' +
        'product: only the demo and simulator verbs (src/cli/demo.ts, src/cli/demo-services.ts, ' +
        'src/cli/simulator.ts) and tests may import it. The dev kit may import product modules, ' +
        'never the other way round, so serve, run-job and check never load it.',
      from: {
        path: '^src/',
        pathNot: '^src/(dev/|cli/(demo|demo-services|simulator)\\.ts$)',
      },
      to: { path: '^src/dev/' },
    },
    {
      name: 'cli-is-the-top',
      severity: 'error',
      comment:
        'src/cli holds the verbs and composes everything; only src/main.ts (and tests) may import ' +
        'it. A module below that imports a verb would pull the whole composition root into it.',
      from: { path: '^src/', pathNot: '^src/(main\\.ts$|cli/)' },
      to: { path: '^src/cli/' },
    },
    ...featureOrder(),
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'This module is part of an import cycle. Cycles make load order matter and hide which ' +
        'module owns an idea; break it by moving the shared part into a module both import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment:
        'This module is imported by nothing and imports nothing: it is dead code (or a file that ' +
        'was meant to be wired in). Use it or delete it.',
      from: {
        orphan: true,
        pathNot: ['(^|/)\\.[^/]+\\.(js|cjs|mjs|ts|json)$', '\\.d\\.(c|m)?ts$'],
      },
      to: {},
    },
    {
      name: 'not-to-dev-dep',
      severity: 'error',
      comment:
        'src/ must not import packages listed only in devDependencies: the Docker image keeps ' +
        'production dependencies only (`npm prune --omit=dev`), so the service would fail at start. Move the ' +
        'package to dependencies, or keep the import out of src/.',
      from: { path: '^src/' },
      to: {
        dependencyTypes: ['npm-dev'],
        // Type-only imports vanish at compile time; @types packages hold nothing to run.
        dependencyTypesNot: ['type-only'],
        pathNot: ['node_modules/@types/'],
      },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'This import cannot be resolved to a file or an installed package: a typo, a moved ' +
        'module or a package missing from package.json.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are arrows too: a view that imports a jobs type is tied to jobs.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
