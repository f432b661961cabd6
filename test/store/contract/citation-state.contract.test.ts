/**
 * CitationStateRepo on both backends: the citations detector's memory, one packed base row
 * per brand plus a row per URL changed since. Values that a lossy encoding would change,
 * the row count, the earlier packed form, a run writing only what it changed (folded into
 * the base once it is a fair share of it), and that a brand's writes commit or roll back
 * with the caller's transaction.
 */
import { expect, it } from 'vitest';
import type { CitationState, UrlCitationState } from '../../../src/alerts/detect-citations.js';
import { parseJsonBody } from '../../../src/api/parse-response.js';
import type { CitationStateRepo } from '../../../src/store/citation-state-repo.js';
import type { JobRunsRepo } from '../../../src/store/job-runs-repo.js';
import { describeBackends, type TestBackend } from './store-backends.js';

const repoOn = (b: TestBackend): CitationStateRepo => b.store().citationState;
const jobsOn = (b: TestBackend): JobRunsRepo => b.store().jobRuns;

interface StoredRow {
  brand_id: string;
  url_count: number;
  state: string;
  updated_at_ms: number;
}

/** Change rows as stored, by brand and URL. */
async function changeRows(
  b: TestBackend,
): Promise<{ brand_id: string; url: string; updated_at_ms: number }[]> {
  const sql = 'SELECT brand_id, url, updated_at_ms FROM citation_state_changes ORDER BY brand_id, url';
  if (b.kind === 'sqlite')
    return b.db.prepare(sql).all() as { brand_id: string; url: string; updated_at_ms: number }[];
  const { rows } = await b.pool.query<{ brand_id: string; url: string; updated_at_ms: string | number }>(sql);
  return rows.map((r) => ({ ...r, updated_at_ms: Number(r.updated_at_ms) }));
}

/** The rows as stored, `state` as text, by brand. */
async function storedRows(b: TestBackend): Promise<StoredRow[]> {
  if (b.kind === 'sqlite') {
    return b.db.prepare('SELECT * FROM citation_state ORDER BY brand_id').all() as StoredRow[];
  }
  const { rows } = await b.pool.query<StoredRow>(
    'SELECT brand_id, url_count, state::text AS state, updated_at_ms FROM citation_state ORDER BY brand_id',
  );
  return rows;
}

async function insertRow(b: TestBackend, brandId: string, urlCount: number, state: string): Promise<void> {
  const sql = 'INSERT INTO citation_state (brand_id, url_count, state, updated_at_ms) VALUES ';
  if (b.kind === 'sqlite') b.db.prepare(`${sql}(?, ?, ?, 1)`).run(brandId, urlCount, state);
  else await b.pool.query(`${sql}($1, $2, $3::jsonb, 1)`, [brandId, urlCount, state]);
}

function entry(i: number, extra: Partial<UrlCitationState> = {}): UrlCitationState {
  return {
    presence: (['lost', 'present', 'unknown'] as const)[i % 3]!,
    presenceAtMs: 1_700_000_000_000 + i * 86_400_000 + (i % 1000),
    // Fractions that only survive a round trip printed to 17 significant digits.
    sentiment: i % 5 === 0 ? null : i % 2 === 0 ? (i % 100) + 0.5 : (i % 100) / 3,
    sentimentAtMs: i % 5 === 0 ? null : 1_700_000_000_000,
    competitors: i % 7 === 0 ? ['Rival', `Other "${i}" \\ ü\n`] : [],
    version: i % 4,
    lastEvent: i % 2 === 0 ? 'new' : null,
    ...extra,
  };
}

const stateOf = (n: number, from = 0): CitationState =>
  new Map(
    Array.from({ length: n }, (_, i) => [`https://s${from + i}.example/p?q="${i}"&x=ü`, entry(from + i)]),
  );

/** `state` with `urls` set to `e`, as a run's next state. */
const withEntries = (state: CitationState, urls: readonly string[], e: UrlCitationState): CitationState => {
  const next = new Map(state);
  for (const url of urls) next.set(url, e);
  return next;
};

describeBackends('citation state', (backend) => {
  it('saves and loads a brand state exactly, in the order saved, one row per brand', async () => {
    const b = backend();
    const repo = repoOn(b);
    const state = stateOf(500);
    expect(await repo.has('b1')).toBe(false);
    expect(await repo.count('b1')).toBe(0);
    expect(await repo.save('b1', state, 1)).toBe(500);
    await repo.replace('b2', stateOf(3, 700), 1);
    const loaded = await repo.load('b1');
    expect(loaded).toEqual(state);
    expect([...loaded.keys()]).toEqual([...state.keys()]);
    expect(await repo.load('b2')).toEqual(stateOf(3, 700));
    expect(await repo.load('b3')).toEqual(new Map());
    expect(await repo.has('b1')).toBe(true);
    expect(await repo.count('b1')).toBe(500);
    expect((await storedRows(b)).map((r) => [r.brand_id, r.url_count])).toEqual([
      ['b1', 500],
      ['b2', 3],
    ]);
  });

  it('writes the next state when a run changed a URL, and nothing when it changed none', async () => {
    const b = backend();
    const repo = repoOn(b);
    const state: CitationState = new Map([
      ['u1', entry(1)],
      ['u2', entry(2)],
    ]);
    await repo.save('b1', state, 1);
    const next = new Map(state);
    next.set('u1', entry(1, { presence: 'lost', version: 9 }));
    expect(await repo.save('b1', next, 2, ['u1', 'missing'])).toBe(1);
    expect(await repo.load('b1')).toEqual(next);
    const unchanged = new Map(next);
    unchanged.set('u2', entry(2, { version: 42 }));
    expect(await repo.save('b1', unchanged, 3, [])).toBe(0);
    expect(await repo.save('b1', stateOf(5), 3, ['https://elsewhere.example/'])).toBe(0);
    expect((await repo.load('b1')).get('u2')!.version).toBe(entry(2).version);
    expect(await repo.count('b1')).toBe(2);
    // The run wrote u1 alone; the base row is as the first save left it.
    expect((await storedRows(b))[0]!.updated_at_ms).toBe(1);
    expect(await changeRows(b)).toEqual([{ brand_id: 'b1', url: 'u1', updated_at_ms: 2 }]);
  });

  it('a run writes the URLs it changed; once they are a quarter of the state they fold into the base', async () => {
    const b = backend();
    const repo = repoOn(b);
    const state = stateOf(200);
    await repo.save('b1', state, 1);
    const base = (await storedRows(b))[0]!.state;
    const urls = [...state.keys()];
    let next: CitationState = state;
    // 10 URLs a run, one of them new: 4 runs stay below a quarter of the state.
    for (let run = 0; run < 4; run++) {
      next = new Map(next);
      const changed = [...urls.slice(run * 10, run * 10 + 9), `https://added.example/${run}`];
      for (const url of changed) next.set(url, entry(run + 3, { version: 10 + run }));
      expect(await repo.save('b1', next, 2 + run, changed)).toBe(10);
      expect(await repo.load('b1')).toEqual(next);
      expect((await storedRows(b))[0]!.state).toBe(base);
      expect(await changeRows(b)).toHaveLength(10 * (run + 1));
    }
    expect(await repo.count('b1')).toBe(204);
    // A URL changed again is one row, not two.
    next = new Map(next);
    next.set(urls[0]!, entry(50));
    await repo.save('b1', next, 6, [urls[0]!, urls[0]!]);
    expect(await changeRows(b)).toHaveLength(40);
    expect(await repo.load('b1')).toEqual(next);
    // The next run's eleven rows make 51 of 204 URLs: folded into a new base, the rows gone.
    next = new Map(next);
    const last = urls.slice(100, 111);
    for (const url of last) next.set(url, entry(60));
    await repo.save('b1', next, 7, last);
    expect(await changeRows(b)).toEqual([]);
    expect((await storedRows(b)).map((r) => [r.url_count, r.updated_at_ms])).toEqual([[204, 7]]);
    expect(await repo.load('b1')).toEqual(next);
    // A whole-state write (a baseline) also leaves no change rows behind.
    await repo.save('b1', new Map(next).set(urls[5]!, entry(70)), 8, [urls[5]!]);
    await repo.replace('b1', stateOf(3), 9);
    expect(await changeRows(b)).toEqual([]);
    expect(await repo.load('b1')).toEqual(stateOf(3));
    await repo.save('b1', new Map(stateOf(3)).set('u9', entry(9)), 10, ['u9']);
    expect(await repo.remove('b1')).toBe(4);
    expect(await changeRows(b)).toEqual([]);
    expect(await repo.has('b1')).toBe(false);
  });

  it('loads several brands at once as each alone, and folds after a batch load as after a load', async () => {
    const b = backend();
    const repo = repoOn(b);
    const one = stateOf(200);
    await repo.save('b1', one, 1);
    await repo.save('b2', stateOf(5, 300), 1);
    // b1 gains 45 change rows: below a quarter of its 200 URLs.
    let next: CitationState = new Map(one);
    const changed = [...one.keys()].slice(0, 45);
    for (const url of changed) next.set(url, entry(7, { version: 9 }));
    await repo.save('b1', next, 2, changed);
    const loaded = await repo.loadMany(['b1', 'b2', 'b9']);
    expect(loaded).toEqual(
      new Map([
        ['b1', await repo.load('b1')],
        ['b2', await repo.load('b2')],
        ['b9', new Map()],
      ]),
    );
    expect(loaded.get('b1')).toEqual(next);
    // Loaded in a batch, then saved: 45 rows and 6 more make 51 of 200, so they fold.
    await repo.loadMany(['b2', 'b1']);
    next = new Map(next);
    const more = [...one.keys()].slice(100, 106);
    for (const url of more) next.set(url, entry(8));
    await repo.save('b1', next, 3, more);
    expect(await changeRows(b)).toEqual([]);
    expect(await repo.load('b1')).toEqual(next);
    expect(await repo.loadMany([])).toEqual(new Map());
  });

  it('saves a batch of brands as each alone: change rows, a fold, and a brand not loaded just before', async () => {
    const b = backend();
    const repo = repoOn(b);
    const big = stateOf(200);
    await repo.save('b1', big, 1);
    await repo.save('b2', big, 1);
    await repo.save('b3', stateOf(5, 300), 1);
    // b2 already holds 45 change rows: six more fold it (51 of 200).
    const changedB2 = [...big.keys()].slice(0, 45);
    await repo.save('b2', withEntries(big, changedB2, entry(7)), 2, changedB2);
    await repo.loadMany(['b1', 'b2']);
    const oneUrl = [...big.keys()].slice(10, 11);
    const nextB1 = withEntries(big, [...oneUrl, 'https://added.example/1'], entry(9));
    const sixMore = [...big.keys()].slice(100, 106);
    const nextB2 = withEntries(await repo.load('b2'), sixMore, entry(8));
    await repo.loadMany(['b1', 'b2']);
    const nextB3 = withEntries(stateOf(5, 300), ['u3'], entry(3));
    await repo.saveMany([
      {
        brandId: 'b1',
        state: nextB1,
        nowMs: 3,
        urls: [...oneUrl, 'https://added.example/1', 'not-in-state'],
      },
      { brandId: 'b2', state: nextB2, nowMs: 3, urls: sixMore },
      // Not loaded just before: its rows are counted by the database, as a save alone does.
      { brandId: 'b3', state: nextB3, nowMs: 3, urls: ['u3'] },
    ]);
    expect(await repo.loadMany(['b1', 'b2', 'b3'])).toEqual(
      new Map([
        ['b1', nextB1],
        ['b2', nextB2],
        ['b3', nextB3],
      ]),
    );
    // b1's two URLs and b3's one as change rows; b2 folded into its base.
    expect((await changeRows(b)).map((r) => [r.brand_id, r.updated_at_ms])).toEqual([
      ['b1', 3],
      ['b1', 3],
      ['b3', 3],
    ]);
    expect((await storedRows(b)).map((r) => [r.brand_id, r.url_count, r.updated_at_ms])).toEqual([
      ['b1', 200, 1],
      ['b2', 200, 3],
      ['b3', 5, 1],
    ]);
    await repo.saveMany([]);
  });

  it('replace drops URLs the new state does not have; an empty state or remove forgets the brand', async () => {
    const b = backend();
    const repo = repoOn(b);
    await repo.save(
      'b1',
      new Map([
        ['u1', entry(1)],
        ['u2', entry(2)],
      ]),
      1,
    );
    await repo.save('b2', new Map([['u1', entry(1)]]), 1);
    await repo.replace('b1', new Map([['u3', entry(3)]]), 2);
    expect([...(await repo.load('b1')).keys()]).toEqual(['u3']);
    expect(await repo.remove('b1')).toBe(1);
    expect(await repo.remove('b1')).toBe(0);
    expect(await repo.count('b2')).toBe(1);
    await repo.replace('b2', new Map(), 3);
    expect(await repo.has('b2')).toBe(false);
    expect(await storedRows(b)).toEqual([]);
  });

  it('stores URLs in equal states once, and a change to one URL leaves the others as they were', async () => {
    const b = backend();
    const repo = repoOn(b);
    const same: UrlCitationState = {
      presence: 'present',
      presenceAtMs: 1_700_000_000_000,
      sentiment: 70,
      sentimentAtMs: null,
      competitors: ['Rival'],
      version: 1,
      lastEvent: 'new',
    };
    const state: CitationState = new Map(
      Array.from({ length: 300 }, (_, i) => [`https://s.example/${i}`, { ...same, competitors: ['Rival'] }]),
    );
    await repo.save('b1', state, 1);
    // One entry for the 300 equal ones: the row is the URLs and a number per URL.
    expect((await storedRows(b))[0]!.state.split('Rival')).toHaveLength(2);

    const loaded = await repo.load('b1');
    expect(loaded).toEqual(state);
    // Loaded entries are read-only: a detector that changed one in place would change all.
    expect(() => {
      (loaded.get('https://s.example/0') as { version: number }).version = 9;
    }).toThrow(TypeError);
    expect(() => loaded.get('https://s.example/0')!.competitors.push('Other')).toThrow(TypeError);

    const next = new Map(loaded);
    next.set('https://s.example/7', { ...same, presence: 'lost', version: 2, lastEvent: 'lost' });
    await repo.save('b1', next, 2, ['https://s.example/7']);
    const again = await repo.load('b1');
    expect(again.get('https://s.example/7')).toEqual({
      ...same,
      presence: 'lost',
      version: 2,
      lastEvent: 'lost',
    });
    expect(again.get('https://s.example/6')).toEqual(same);
    expect(again.get('https://s.example/8')).toEqual(same);
    expect([...again.keys()]).toEqual([...state.keys()]);
  });

  it('reads a row in the earlier one-array-per-field form, lays changes over it, and rewrites it in the compact one', async () => {
    const b = backend();
    const repo = repoOn(b);
    const state = stateOf(20);
    const columns = [
      [...state.keys()],
      ...(
        [
          'presence',
          'presenceAtMs',
          'sentiment',
          'sentimentAtMs',
          'competitors',
          'version',
          'lastEvent',
        ] as const
      ).map((field) => [...state.values()].map((s) => s[field])),
    ];
    await insertRow(b, 'b1', 20, JSON.stringify(columns));
    const loaded = await repo.load('b1');
    expect(loaded).toEqual(state);

    const changed = new Map(loaded);
    changed.set('https://new.example/', entry(99));
    await repo.save('b1', changed, 2, ['https://new.example/']);
    expect(await repo.load('b1')).toEqual(changed);
    await repo.save('b1', changed, 3);
    expect(JSON.parse((await storedRows(b))[0]!.state)).toHaveLength(3);
    expect(await changeRows(b)).toEqual([]);
    expect(await repo.load('b1')).toEqual(changed);
  });

  it('stores a URL or competitor with a NUL or a lone surrogate instead of failing the write', async () => {
    const b = backend();
    const repo = repoOn(b);
    const odd = 'https://odd.example/a\u0000b';
    const state: CitationState = new Map([
      [odd, entry(7, { competitors: ['Ri\u0000val', 'half \ud83d pair'] })],
      ['https://plain.example/', entry(1)],
    ]);
    expect(await repo.save('b1', state, 1)).toBe(2);
    const loaded = await repo.load('b1');
    if (b.kind === 'sqlite') {
      expect(loaded).toEqual(state);
    } else {
      // Postgres holds neither; the replacement character stands in for each.
      expect([...loaded.keys()]).toEqual(['https://odd.example/a\ufffdb', 'https://plain.example/']);
      expect(loaded.get('https://odd.example/a\ufffdb')!.competitors).toEqual([
        'Ri\ufffdval',
        'half \ufffd pair',
      ]);
      expect(loaded.get('https://plain.example/')).toEqual(entry(1));
    }
  });

  it('loads back exactly what the API client parsed, NUL and lone surrogates included, so the next run matches it', async () => {
    const b = backend();
    const repo = repoOn(b);
    // As the service could send it: escapes for NUL and half a surrogate pair in a URL and a competitor.
    const body =
      '{"url":"https://odd.example/a\\u0000b\\ud83d","competitor":"Ri\\u0000val","literal":"C:\\\\u0000"}';
    const parsed = parseJsonBody(body, 'GET /get-citations-feed') as {
      url: string;
      competitor: string;
      literal: string;
    };
    expect(parsed.url).toBe('https://odd.example/a\ufffdb\ufffd');
    expect(parsed.literal).toBe('C:\\u0000');
    const state: CitationState = new Map([[parsed.url, entry(3, { competitors: [parsed.competitor] })]]);
    await repo.save('b1', state, 1);
    expect(await repo.load('b1')).toEqual(state);
  });

  it("is written together with the job's other writes, or not at all", async () => {
    const b = backend();
    const repo = repoOn(b);
    const jobs = jobsOn(b);
    await repo.save('b1', stateOf(2), 1);
    await expect(
      b.transaction(async () => {
        await repo.save('b1', stateOf(5, 10), 2);
        await repo.save('b2', stateOf(1), 2);
        await repo.save('b4', stateOf(3), 2, [...stateOf(3).keys()].slice(0, 1));
        await repo.remove('b3');
        await jobs.recordBrandSuccess('citations', 'b1', 2);
        throw new Error('the process died before the commit');
      }),
    ).rejects.toThrow('process died');
    expect(await repo.load('b1')).toEqual(stateOf(2));
    expect(await repo.has('b2')).toBe(false);
    expect(await repo.has('b3')).toBe(false);
    expect(await repo.has('b4')).toBe(false);
    expect(await changeRows(b)).toEqual([]);
    expect(await jobs.lastSuccess('citations', 'b1')).toBeNull();

    await b.transaction(async () => {
      await repo.save('b1', stateOf(5, 10), 2);
      await repo.save('b4', stateOf(3), 2, [...stateOf(3).keys()].slice(0, 1));
      await jobs.recordBrandSuccess('citations', 'b1', 2);
    });
    expect(await repo.load('b1')).toEqual(stateOf(5, 10));
    expect(await repo.load('b4')).toEqual(new Map([...stateOf(3)].slice(0, 1)));
    expect(await jobs.lastSuccess('citations', 'b1')).toBe(2);
  });

  it('a state written by one connection is what another loads', async () => {
    await repoOn(backend()).save('b1', stateOf(50), 1);
    const other = repoOn(backend().other());
    expect(await other.load('b1')).toEqual(stateOf(50));
    expect(await other.count('b1')).toBe(50);
  });

  it('connections saving the same brand at once leave one whole state, never a mix or an error', async () => {
    const repos = [backend(), backend().other(), backend().other()].map(repoOn);
    for (let round = 0; round < 5; round++) {
      const states = repos.map((_, i) => stateOf(10 + i, 1000 * i + round));
      // The first round races on a brand with no row yet: three inserts of one key.
      await Promise.all(repos.map((r, i) => r.save('b1', states[i]!, round)));
      const loaded = await repos[0]!.load('b1');
      const winner = states.findIndex((s) => s.size === loaded.size);
      expect(loaded).toEqual(states[winner]);
      expect(await repos[1]!.count('b1')).toBe(loaded.size);
    }
  });
});
