/**
 * Migration 11's indexes, on every backend: the statements the App Home and `status` run
 * (captured from the driver as the repositories send them) are planned through them, not
 * through a scan of every row. Postgres is told to avoid sequential scans where it can, as
 * its planner would on a table of 100,000 rows, rather than filling one.
 */
import { expect, it } from 'vitest';
import type { PgPool } from '../../src/store/postgres/create-pool.js';
import { describeBackends, type TestBackend } from './contract/store-backends.js';

interface Captured {
  sql: string;
  params: unknown[];
}

/** Where a wrapped Postgres connection records its statements (it stays wrapped in the pool). */
let sink: Captured[] | null = null;

/** Every statement `fn` sends through the backend's driver. */
async function captured(b: TestBackend, fn: () => Promise<unknown>): Promise<Captured[]> {
  const out: Captured[] = [];
  if (b.kind === 'sqlite') {
    const db = b.db;
    const prepare = db.prepare.bind(db);
    db.prepare = ((text: string) => {
      const statement = prepare(text);
      const all = statement.all.bind(statement);
      statement.all = ((...params: unknown[]) => {
        out.push({ sql: text, params });
        return all(...params);
      }) as typeof statement.all;
      return statement;
    }) as typeof db.prepare;
    try {
      await fn();
    } finally {
      db.prepare = prepare as typeof db.prepare;
    }
    return out;
  }
  const listener = (client: { query: (...a: unknown[]) => unknown; __captured?: boolean }) => {
    if (client.__captured) return;
    client.__captured = true;
    const query = client.query.bind(client);
    client.query = (...a: unknown[]) => {
      // The store sends { text, values }; others a text and its values.
      const [first, second] = a;
      const q =
        typeof first === 'string'
          ? { text: first, values: second }
          : (first as { text?: unknown; values?: unknown });
      if (sink && typeof q.text === 'string')
        sink.push({ sql: q.text, params: (q.values as unknown[] | undefined) ?? [] });
      return query(...a);
    };
  };
  sink = out;
  (b.pool as PgPool).on('acquire', listener as never);
  try {
    await fn();
  } finally {
    sink = null;
    (b.pool as PgPool).off('acquire', listener as never);
  }
  return out;
}

/** The plan of a captured statement, as one text. */
async function plan(b: TestBackend, c: Captured): Promise<string> {
  if (b.kind === 'sqlite') {
    const rows = b.db.prepare(`EXPLAIN QUERY PLAN ${c.sql}`).all(...c.params) as { detail: string }[];
    return rows.map((r) => r.detail).join('\n');
  }
  const client = await (b.pool as PgPool).connect();
  try {
    await client.query('SET enable_seqscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${c.sql}`, c.params);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await client.query('RESET enable_seqscan');
    client.release();
  }
}

const reading = (table: string) => (c: Captured) =>
  new RegExp(`from "${table}"`, 'i').test(c.sql) && /^\s*select/i.test(c.sql);

describeBackends('indexes for the App Home and status', (backend) => {
  it('exist once the store is migrated', async () => {
    const b = backend();
    const names =
      b.kind === 'sqlite'
        ? await b.rows<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'index'")
        : await b.rows<{ name: string }>(
            'SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema()',
          );
    expect(names.map((n) => n.name)).toEqual(
      expect.arrayContaining([
        'outbox_brand_history',
        'audit_log_action_at',
        'job_runs_job_id',
        'snoozes_until',
      ]),
    );
  });

  it("plan each brand's newest alerts and digest chart through the brand index", async () => {
    const b = backend();
    const history = b.store().alertHistory;
    const statements = await captured(b, async () => {
      await history.recentAlerts(['b1', 'b2'], 5);
      await history.latestDigestCharts(['b1', 'b2']);
    });
    // The newest alerts; the newest digest chart, as an image row and inside a digest.
    const outbox = statements.filter(reading('outbox'));
    expect(outbox).toHaveLength(3);
    for (const s of outbox) expect(await plan(b, s)).toContain('outbox_brand_history');
  });

  it('plan the acknowledgements since a day through the audit index', async () => {
    const b = backend();
    const history = b.store().alertHistory;
    const [s] = (await captured(b, () => history.acknowledgementsSince(1000))).filter(reading('audit_log'));
    expect(await plan(b, s!)).toContain('audit_log_action_at');
  });

  it("plan a job's newest run and the snoozes still running through their indexes", async () => {
    const b = backend();
    const store = b.store();
    const [runs] = (await captured(b, () => store.jobRuns.recent(1, 'citations'))).filter(
      reading('job_runs'),
    );
    expect(await plan(b, runs!)).toContain('job_runs_job_id');
    const [snoozes] = (await captured(b, () => store.snoozes.listActive(1000))).filter(reading('snoozes'));
    expect(await plan(b, snoozes!)).toContain('snoozes_until');
  });
});
