/**
 * PollObservationsRepo (poll-observations-repo.ts has the contract), for both backends:
 * one row per brand and source, replaced by one INSERT … ON CONFLICT. The data is what the
 * API answered, so a character Postgres refuses is replaced rather than failing the poll.
 * A brand read or written alone goes through a prepared statement; the jobs read every
 * brand's observations in one statement (allOf, allFieldsOf) and write a batch's in one
 * (putMany).
 */
import { type Insertable, type Kysely, sql } from 'kysely';
import type { Database } from '../database.js';
import type {
  PollObservation,
  PollObservationRow,
  PollObservationsRepo,
  PollSource,
} from '../poll-observations-repo.js';
import { count, type Prepared, type RepoContext } from '../repo-context.js';

/** A row of getFields' statement: the time, and field `i` as JSON text in column `f${i}`. */
type FieldsRow = { observed_at_ms: number } & Record<string, string | number | null>;

/** The observation of a getFields row: each field present as stored, one the data lacks left out. */
function fieldsRow(r: FieldsRow, fields: readonly string[]): PollObservation<never> {
  const data: Record<string, unknown> = {};
  for (const [i, f] of fields.entries()) {
    const text = r[`f${i}`];
    if (typeof text === 'string') data[f] = JSON.parse(text);
  }
  return { observedAtMs: Number(r.observed_at_ms), data: data as never };
}

// Long by design: the prepared statements, then one short method per query of the poll observations (one, some fields, all of a source, writes, numbers, purging); each reads alone.
export function createPollObservationsRepo(ctx: RepoContext): PollObservationsRepo {
  const select = ctx.prepare((db, brandId: string, source: string) =>
    db
      .selectFrom('poll_observations')
      .select(['observed_at_ms', 'data'])
      .where('brand_id', '=', brandId)
      .where('source', '=', source),
  );
  const upsertRows = (db: Kysely<Database>, rows: Insertable<Database['poll_observations']>[]) =>
    db
      .insertInto('poll_observations')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['brand_id', 'source']).doUpdateSet((eb) => ({
          observed_at_ms: eb.ref('excluded.observed_at_ms'),
          data: eb.ref('excluded.data'),
        })),
      );
  const upsert = ctx.prepare((db, brandId: string, source: string, observedAtMs: number, data: string) =>
    upsertRows(db, [{ brand_id: brandId, source, observed_at_ms: observedAtMs, data }]),
  );
  /** getFields' statements, one per list of fields (a job asks for the same few every brand). */
  const selectFields = new Map<string, Prepared<[string, string], FieldsRow>>();
  const fieldsStatement = (fields: readonly string[]) => {
    const key = fields.join('\u0000');
    let s = selectFields.get(key);
    if (!s) {
      s = ctx.prepare((db, brandId: string, source: string) =>
        db
          .selectFrom('poll_observations')
          .select('observed_at_ms')
          .select(fields.map((f, i) => ctx.sql.jsonAt(sql.ref<string>('data'), [f]).as(`f${i}`)))
          .where('brand_id', '=', brandId)
          .where('source', '=', source),
      ) as Prepared<[string, string], FieldsRow>;
      selectFields.set(key, s);
    }
    return s;
  };
  return {
    async getFields(brandId, source, fields) {
      const r = (await fieldsStatement(fields)(brandId, source)).rows[0];
      return r ? fieldsRow(r, fields) : null;
    },
    async allFieldsOf(source, fields) {
      const rows = await ctx
        .db()
        .selectFrom('poll_observations')
        .select(['brand_id', 'observed_at_ms'])
        .select(fields.map((f, i) => ctx.sql.jsonAt(sql.ref<string>('data'), [f]).as(`f${i}`)))
        .where('source', '=', source)
        .execute();
      return new Map(rows.map((r) => [r.brand_id, fieldsRow(r as unknown as FieldsRow, fields)] as const));
    },
    async get<T>(brandId: string, source: PollSource) {
      const r = (await select(brandId, source)).rows[0];
      return r ? { observedAtMs: r.observed_at_ms, data: JSON.parse(r.data) as T } : null;
    },
    async allOf<T>(source: PollSource) {
      const rows = await ctx
        .db()
        .selectFrom('poll_observations')
        .select(['brand_id', 'observed_at_ms', 'data'])
        .where('source', '=', source)
        .execute();
      return new Map(
        rows.map((r) => [r.brand_id, { observedAtMs: r.observed_at_ms, data: JSON.parse(r.data) as T }]),
      );
    },
    async put(brandId, source, data, observedAtMs) {
      await upsert(brandId, source, observedAtMs, ctx.sql.json(data));
    },
    async putMany(rows) {
      // One row per key, the last: Postgres refuses a statement that updates a row twice.
      const byKey = new Map<string, PollObservationRow>();
      for (const r of rows) byKey.set(`${r.source}\u0000${r.brandId}`, r);
      if (byKey.size === 0) return;
      const values = [...byKey.values()].map((r) => ({
        brand_id: r.brandId,
        source: r.source,
        observed_at_ms: r.observedAtMs,
        data: ctx.sql.json(r.data),
      }));
      await upsertRows(ctx.db(), values).execute();
    },
    async numbers(source, field) {
      const rows = await ctx
        .db()
        .selectFrom('poll_observations')
        .select((eb) => ctx.sql.jsonAt(eb.ref('data'), field.split('.')).as('value'))
        .where('source', '=', source)
        .execute();
      // Only JSON numbers count: a field written as text or missing is not one.
      return rows
        .map((r) => (r.value === null ? null : JSON.parse(r.value)))
        .filter((v) => typeof v === 'number');
    },
    async purgeObservedBefore(cutoffMs, limit) {
      const db = ctx.db();
      const key = ['brand_id', 'source'] as const;
      const r = await db
        .deleteFrom('poll_observations')
        .where((eb) =>
          eb(
            eb.refTuple(...key),
            'in',
            ctx.sql
              .lockRowsSkipLocked(
                db
                  .selectFrom('poll_observations')
                  .select(key)
                  .where('observed_at_ms', '<', cutoffMs)
                  .limit(limit),
              )
              .$asTuple(...key),
          ),
        )
        .executeTakeFirst();
      return count(r.numDeletedRows);
    },
  };
}
