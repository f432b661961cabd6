import { describe, expect, it } from 'vitest';
import {
  countByModel,
  detectModelCitations,
  INITIAL_MODEL_STATE,
  type ListedCitation,
  type ModelCitationState,
  modelsOfUrl,
  recordList,
} from '../../src/alerts/detect-model-citations.js';

const brand = { id: 'b1', name: 'Acme' };
const NOW = Date.parse('2026-11-20T06:00:00Z');

/** A day's list: `n` cited pages per model. */
function listOf(date: string, perModel: Record<string, number>): ListedCitation[] {
  return Object.entries(perModel).flatMap(([model, n]) =>
    Array.from({ length: n }, (_, i) => ({
      url: `https://site${i}.example/${model}`,
      search_model: model,
      date,
    })),
  );
}

const day = (i: number) =>
  new Date(Date.parse('2026-11-10T00:00:00Z') + i * 86_400_000).toISOString().slice(0, 10);

/** Runs the job's two steps over a script of days; returns every alert with its day. */
function run(
  script: Record<string, number>[],
  start: ModelCitationState = INITIAL_MODEL_STATE,
  complete: (i: number) => boolean = () => true,
) {
  let state = start;
  const out: { day: string; kind: string; title: string; whatChanged: string; key: string }[] = [];
  script.forEach((perModel, i) => {
    state = recordList(state, listOf(day(i), perModel), complete(i));
    const d = detectModelCitations(state, brand, NOW + i * 86_400_000);
    state = d.next;
    for (const a of d.alerts)
      out.push({ day: day(i), kind: a.kind, title: a.title, whatChanged: a.whatChanged, key: a.key });
  });
  return { alerts: out, state };
}

describe('countByModel', () => {
  it('counts distinct cited pages per model per day, skipping rows without a model or date', () => {
    const counts = countByModel([
      { url: 'https://a.example/1', search_model: 'Perplexity', date: '2026-11-10' },
      { url: 'https://a.example/1', search_model: 'Perplexity', date: '2026-11-10' },
      { url: 'https://a.example/2', search_model: 'Perplexity', date: '2026-11-10' },
      { url: 'https://a.example/2', search_model: 'ChatGPT', date: '2026-11-11' },
      { url: 'https://a.example/3', search_model: null, date: '2026-11-11' },
      { url: 'https://a.example/4', search_model: 'Gemini', date: 'yesterday' },
    ]);
    expect(Object.fromEntries([...counts].map(([d, m]) => [d, Object.fromEntries(m)]))).toEqual({
      '2026-11-10': { Perplexity: 2 },
      '2026-11-11': { ChatGPT: 1 },
    });
  });
});

describe('detectModelCitations', () => {
  const steady = { Perplexity: 11, ChatGPT: 9 };
  const dropped = { ChatGPT: 9 };

  it('alerts once when a regular model cites nothing in the last two snapshots, and says the numbers', () => {
    const { alerts } = run([steady, steady, steady, steady, steady, dropped, dropped, dropped, dropped]);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.kind).toBe('model_stopped');
    expect(alerts[0]!.day).toBe(day(6));
    expect(alerts[0]!.title).toBe('Perplexity stopped citing Acme');
    expect(alerts[0]!.whatChanged).toContain(
      'Perplexity stopped citing Acme: 0 cited pages in the last 2 days, 11 the day before.',
    );
  });

  it('sends one recovery notice when the model cites again, and a new episode key on a later stop', () => {
    const { alerts } = run([
      steady,
      steady,
      steady,
      steady,
      steady,
      dropped,
      dropped,
      { Perplexity: 3, ChatGPT: 9 },
      steady,
      steady,
      steady,
      steady,
      dropped,
      dropped,
    ]);
    expect(alerts.map((a) => [a.kind, a.day])).toEqual([
      ['model_stopped', day(6)],
      ['model_recovered', day(7)],
      ['model_stopped', day(13)],
    ]);
    expect(alerts[1]!.whatChanged).toBe(
      'Perplexity cites Acme again: 3 cited pages on Nov 17, 2026, after none.',
    );
    expect(alerts[0]!.key).not.toBe(alerts[2]!.key);
  });

  it('says nothing about a model that cited only now and then', () => {
    const { alerts } = run([steady, dropped, steady, dropped, dropped, steady, dropped, dropped]);
    expect(alerts).toEqual([]);
  });

  it('says nothing when a model that cites a page or two a day falls silent for two days: that is chance', () => {
    const few = { Perplexity: 1, ChatGPT: 9 };
    const some = { Perplexity: 2, ChatGPT: 9 };
    expect(run([few, some, few, some, few, dropped, dropped]).alerts).toEqual([]);
    // Three pages a day on average: two silent days are news.
    const three = { Perplexity: 3, ChatGPT: 9 };
    expect(run([three, three, three, three, three, dropped, dropped]).alerts.map((a) => a.kind)).toEqual([
      'model_stopped',
    ]);
  });

  it('says nothing while there is too little history, or when one silent day is a cut-short list', () => {
    expect(run([steady, dropped, dropped]).alerts).toEqual([]);
    const cut = run(
      [steady, steady, steady, steady, steady, dropped, dropped],
      INITIAL_MODEL_STATE,
      (i) => i !== 6,
    );
    expect(cut.alerts).toEqual([]);
  });

  it('repeating a run on the same day changes nothing', () => {
    const { state } = run([steady, steady, steady, steady, steady, dropped, dropped]);
    const again = recordList(state, listOf(day(6), dropped), true);
    expect(detectModelCitations(again, brand, NOW).alerts).toEqual([]);
  });

  it('remembers which models cited each page over the days kept', () => {
    const s = recordList(
      INITIAL_MODEL_STATE,
      [
        { url: 'https://x.example/a', search_model: 'Perplexity', date: '2026-11-10' },
        { url: 'https://x.example/a', search_model: 'ChatGPT', date: '2026-11-10' },
      ],
      true,
    );
    expect(modelsOfUrl(s, 'https://x.example/a')).toEqual(['Perplexity', 'ChatGPT']);
    // The page left the list: still known for the days kept, forgotten after them.
    let later = s;
    for (let i = 11; i <= 18; i++) {
      later = recordList(
        later,
        [{ url: 'https://x.example/b', search_model: 'Gemini', date: `2026-11-${i}` }],
        true,
      );
    }
    expect(modelsOfUrl(later, 'https://x.example/a')).toEqual(['Perplexity', 'ChatGPT']);
    later = recordList(
      later,
      [{ url: 'https://x.example/b', search_model: 'Gemini', date: '2026-11-19' }],
      true,
    );
    expect(modelsOfUrl(later, 'https://x.example/a')).toEqual([]);
    expect(modelsOfUrl(later, 'https://x.example/b')).toEqual(['Gemini']);
  });
});
