/**
 * The "model stopped citing" rule (src/alerts/detect-model-citations.ts) over simulated
 * brands with known truth: each brand is cited by five AI models, two of them regulars, one
 * occasional and two rare (whose silent days are normal). Half the brands have one regular
 * model drop out for 3 to 20 days, from a random day on. Each day's citation list is
 * replayed through the same pure functions the citations job calls (recordList, then
 * detectModelCitations). A "model stopped" alert is true when it names the model that
 * dropped out, during its drop; a drop is found when its alert comes within 4 days.
 */
import {
  detectModelCitations,
  INITIAL_MODEL_STATE,
  type ListedCitation,
  recordList,
} from '../src/alerts/detect-model-citations.js';
import { createRandom, type Random } from '../src/dev/simulator/random.js';
import { dateOfDay, dayNumber } from '../src/utc-days.js';
import { poisson } from './lib/random-counts.js';

const DAYS = 90;
const START = dayNumber('2026-06-01');
const FOUND_WITHIN = 4;
const BRAND = { id: 'bench-brand', name: 'Bench brand' };

/** Cited pages a day, on average, per model: two regulars, an occasional one, two rare ones. */
const MODELS: readonly [string, number][] = [
  ['chatgpt-search', 8],
  ['perplexity-sonar', 5],
  ['gemini-flash', 1.2],
  ['copilot', 0.3],
  ['claude-web', 0.15],
];

export interface ModelScore {
  alerts: number;
  trueAlerts: number;
  drops: number;
  found: number;
}

interface Drop {
  model: string;
  start: number;
  end: number;
}

function replayBrand(r: Random, drop: Drop | null): ModelScore {
  const score: ModelScore = { alerts: 0, trueAlerts: 0, drops: drop ? 1 : 0, found: 0 };
  let state = INITIAL_MODEL_STATE;
  for (let d = 0; d < DAYS; d++) {
    const date = dateOfDay(START + d);
    const list: ListedCitation[] = [];
    for (const [model, mean] of MODELS) {
      const dropped = drop !== null && drop.model === model && d >= drop.start && d < drop.end;
      const n = dropped ? 0 : poisson(r, mean);
      for (let i = 0; i < n; i++)
        list.push({ url: `https://x.example/${model}/${i}`, search_model: model, date });
    }
    state = recordList(state, list, true);
    const detected = detectModelCitations(state, BRAND, 0);
    state = detected.next;
    for (const a of detected.alerts) {
      if (a.kind !== 'model_stopped') continue;
      score.alerts++;
      const right = drop !== null && a.model === drop.model && d >= drop.start && d < drop.end;
      if (right) score.trueAlerts++;
      if (right && d < drop!.start + FOUND_WITHIN) score.found = 1;
    }
  }
  return score;
}

/** `brands` brands without a drop-out and as many with one. */
export function modelDropoutScore(seed: string, brands: number): ModelScore {
  const total: ModelScore = { alerts: 0, trueAlerts: 0, drops: 0, found: 0 };
  for (let b = 0; b < 2 * brands; b++) {
    const r = createRandom(`${seed}:models:${b}`);
    const regular = MODELS[Math.floor(r.next() * 2)]![0];
    const start = 20 + Math.floor(r.next() * (DAYS - 45));
    const drop = b % 2 === 1 ? { model: regular, start, end: start + 3 + Math.floor(r.next() * 18) } : null;
    const s = replayBrand(r, drop);
    total.alerts += s.alerts;
    total.trueAlerts += s.trueAlerts;
    total.drops += s.drops;
    total.found += s.found;
  }
  return total;
}
