/**
 * CitationStateRepo (citation-state-repo.ts has the contract), for both backends. A brand's
 * state is a base row, the packed JSON text of citation-state-packing.ts (SQLite text,
 * Postgres jsonb read back as text, so both backends hold the same text and the same code
 * unpacks it), plus one row per URL changed since that base was written
 * (citation_state_changes), laid over it when the state is loaded.
 *
 * A run writes only the URLs it changed: a few small rows instead of the brand's whole
 * state (tens of kB, a third of a run's time when it was rewritten every run). When the
 * change rows reach a quarter of the state, the save that got there folds them into a new
 * base (it holds the whole next state anyway) and deletes them, so a load never reads
 * many more rows than the state has URLs.
 *
 * Each write is one statement or a few, atomic together inside the caller's transaction
 * (the jobs always call these there, next to the outbox rows): they commit or roll back
 * with the rest.
 */
import { sql } from 'kysely';
import type { CitationState } from '../../alerts/detect-citations.js';
import {
  packCitationEntry,
  packCitationState,
  unpackCitationEntry,
  unpackCitationState,
} from '../citation-state-packing.js';
import type { CitationStateRepo, CitationStateSave } from '../citation-state-repo.js';
import type { RepoContext } from '../repo-context.js';

/** A change row as the upsert reads it: brand, URL, packed entry. */
type ChangeRow = [brandId: string, url: string, entry: unknown[]];

/** The entries of `urls` that `state` holds, as the brand's change rows. */
function changeRowsOf(brandId: string, state: CitationState, urls: Iterable<string>): ChangeRow[] {
  const rows: ChangeRow[] = [];
  for (const url of new Set(urls)) {
    const s = state.get(url);
    if (s) rows.push([brandId, url, packCitationEntry(s)]);
  }
  return rows;
}

/** Change rows a brand may hold before they are folded into its base: a share of its URLs, or this many. */
const FOLD_SHARE = 0.25;
const FOLD_AT_LEAST = 32;

// Long by design: the prepared statements of the citation state, then one short method per query; each reads alone.
export function createCitationStateRepo(ctx: RepoContext): CitationStateRepo {
  // The citations job loads and saves each brand's state: prepared.
  // The base row (url null) and the change rows, in one statement: a statement through the
  // query builder costs more than SQLite takes to run it.
  const select = ctx.prepare((db, brandId: string) =>
    db
      .selectFrom('citation_state')
      .select(['state as text', sql<string | null>`NULL`.as('url')])
      .where('brand_id', '=', brandId)
      .unionAll(
        db
          .selectFrom('citation_state_changes')
          .select(['entry as text', sql<string | null>`url`.as('url')])
          .where('brand_id', '=', brandId),
      ),
  );
  const countChanges = ctx.prepare((db, brandId: string) =>
    db
      .selectFrom('citation_state_changes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('brand_id', '=', brandId),
  );
  const deleteChanges = ctx.prepare((db, brandId: string) =>
    db.deleteFrom('citation_state_changes').where('brand_id', '=', brandId),
  );
  const upsertBase = ctx.prepare((db, brandId: string, urlCount: number, state: string, nowMs: number) =>
    db
      .insertInto('citation_state')
      .values({ brand_id: brandId, url_count: urlCount, state, updated_at_ms: nowMs })
      .onConflict((oc) =>
        oc.column('brand_id').doUpdateSet((eb) => ({
          url_count: eb.ref('excluded.url_count'),
          state: eb.ref('excluded.state'),
          updated_at_ms: eb.ref('excluded.updated_at_ms'),
        })),
      ),
  );

  /**
   * The change rows of the brands loaded last (by the last batch's loadMany, and the single
   * loads since: at most a row set per brand), by URL. A run
   * saves a brand right after loading it, in the same transaction: the rows it leaves are
   * those plus the URLs it writes, so it need not count them with one more statement. Any
   * other save asks the database. Only when a fold happens depends on the number, never
   * what is stored.
   */
  let lastLoaded = new Map<string, Set<string>>();
  const heldAfterLoad = (brandId: string, written: readonly ChangeRow[]): number | null => {
    const known = lastLoaded.get(brandId) ?? null;
    lastLoaded.delete(brandId);
    if (known === null) return null;
    for (const [, url] of written) known.add(url);
    return known.size;
  };

  /**
   * One statement for changed URLs of any brands, `[brand, url, packed entry]` each as
   * JSON text, whatever their number; prepared like the others (the query builder would
   * otherwise build and compile it again for every batch).
   */
  const upsertChangeRows = ctx.prepare((db, rows: string, nowMs: number) => {
    const statement = sql`INSERT INTO citation_state_changes (brand_id, url, entry, updated_at_ms)
      SELECT e.value ->> 0, e.value ->> 1, e.value -> 2, ${nowMs} FROM ${ctx.sql.jsonElements(rows)}
      WHERE true
      ON CONFLICT (brand_id, url) DO UPDATE SET entry = excluded.entry, updated_at_ms = excluded.updated_at_ms`;
    return { compile: () => statement.compile(db) };
  });
  const upsertChanges = async (rows: ChangeRow[], nowMs: number) => {
    if (rows.length > 0) await upsertChangeRows(ctx.sql.json(rows), nowMs);
  };

  const remove = async (brandId: string): Promise<number> => {
    const size = (await load(brandId)).size;
    await deleteChanges(brandId);
    await ctx.db().deleteFrom('citation_state').where('brand_id', '=', brandId).execute();
    lastLoaded.delete(brandId);
    return size;
  };

  /** The brand's whole state as a new base, its change rows gone. */
  const write = async (brandId: string, state: CitationState, nowMs: number): Promise<void> => {
    if (state.size === 0) {
      await remove(brandId);
      return;
    }
    await upsertBase(brandId, state.size, ctx.sql.jsonText(packCitationState(state)), nowMs);
    await deleteChanges(brandId);
    lastLoaded.delete(brandId);
  };

  /** Whether a brand holding `held` change rows is folded into a new base. */
  const folds = (held: number, state: CitationState) =>
    held >= Math.max(FOLD_AT_LEAST, state.size * FOLD_SHARE);

  /** A brand's change rows (changeRowsOf `state`); folded into a new base when they are many. */
  const writeChanges = async (
    brandId: string,
    state: CitationState,
    nowMs: number,
    rows: ChangeRow[],
  ): Promise<number> => {
    if (rows.length === 0) return 0;
    await upsertChanges(rows, nowMs);
    const held = heldAfterLoad(brandId, rows) ?? Number((await countChanges(brandId)).rows[0]?.n ?? 0);
    if (folds(held, state)) await write(brandId, state, nowMs);
    return rows.length;
  };

  /**
   * The saves of brands loaded just before: the change rows of those not folded, in one
   * statement per run time (a run has one), each folded one written alone. A brand this
   * process did not load just before is saved alone, counting its rows as `save` does.
   */
  async function saveMany(saves: readonly CitationStateSave[]): Promise<void> {
    const byTime = new Map<number, ChangeRow[]>();
    for (const s of new Map(saves.map((save) => [save.brandId, save])).values()) {
      const rows = changeRowsOf(s.brandId, s.state, s.urls);
      if (rows.length === 0) continue;
      const held = heldAfterLoad(s.brandId, rows);
      if (held === null) await writeChanges(s.brandId, s.state, s.nowMs, rows);
      else if (folds(held, s.state)) await write(s.brandId, s.state, s.nowMs);
      else {
        const same = byTime.get(s.nowMs);
        if (same) same.push(...rows);
        else byTime.set(s.nowMs, rows);
      }
    }
    for (const [nowMs, rows] of byTime) await upsertChanges(rows, nowMs);
  }

  /** Brands' states from their base and change rows (any brand's, in any order; `brandOf` names a row's brand). */
  function statesOf<R extends { text: string; url: string | null }>(
    brandIds: readonly string[],
    rows: readonly R[],
    brandOf: (r: R) => string,
  ): Map<string, CitationState> {
    // A batch's load starts the record afresh; a single brand's joins it (a brand prepared
    // outside the batch's transaction must not make the batch's saves count their rows).
    if (brandIds.length > 1) lastLoaded = new Map();
    for (const id of brandIds) lastLoaded.set(id, new Set<string>());
    const states = new Map<string, CitationState>(brandIds.map((id) => [id, new Map()]));
    // The base first: the change rows lie over it.
    for (const r of rows) if (r.url === null) states.set(brandOf(r), unpackCitationState(r.text));
    for (const r of rows) {
      if (r.url === null) continue;
      lastLoaded.get(brandOf(r))?.add(r.url);
      states.get(brandOf(r))?.set(r.url, unpackCitationEntry(r.text));
    }
    return states;
  }

  async function load(brandId: string): Promise<CitationState> {
    const { rows } = await select(brandId);
    return statesOf([brandId], rows, () => brandId).get(brandId)!;
  }

  async function loadMany(brandIds: readonly string[]): Promise<Map<string, CitationState>> {
    if (brandIds.length === 0) return new Map();
    const ids = [...brandIds];
    const rows = await ctx
      .db()
      .selectFrom('citation_state')
      .select(['brand_id as brand', 'state as text', sql<string | null>`NULL`.as('url')])
      .where('brand_id', 'in', ids)
      .unionAll(
        ctx
          .db()
          .selectFrom('citation_state_changes')
          .select(['brand_id as brand', 'entry as text', sql<string | null>`url`.as('url')])
          .where('brand_id', 'in', ids),
      )
      .execute();
    return statesOf(brandIds, rows, (r) => r.brand);
  }

  return {
    load,
    loadMany,
    saveMany,
    async save(brandId, state, nowMs, urls) {
      if (urls !== undefined) return writeChanges(brandId, state, nowMs, changeRowsOf(brandId, state, urls));
      if (state.size > 0) await write(brandId, state, nowMs);
      return state.size;
    },
    replace: write,
    has: async (brandId) => (await load(brandId)).size > 0,
    remove,
    count: async (brandId) => (await load(brandId)).size,
  };
}
