/**
 * Seeded randomness. Every generated value in the simulator comes from a generator
 * seeded by a string that names what is generated (brand, day, crawler…), so two fresh
 * simulators produce byte-identical data and one value can be regenerated on its own.
 */
import { createHash } from 'node:crypto';

/** 32-bit FNV-1a: a cheap, stable string hash for seeding. */
function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A number in [0, 1) that depends only on `seed`. */
export function unitFrom(seed: string): number {
  return createRandom(seed).next();
}

export interface Random {
  /** [0, 1) */
  next(): number;
  /** integer in [min, max] */
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** `count` distinct items, in random order */
  sample<T>(items: readonly T[], count: number): T[];
  /** index chosen with probability proportional to its weight */
  weighted(weights: readonly number[]): number;
}

/** mulberry32, seeded by the string's hash. */
export function createRandom(seed: string): Random {
  let state = hashString(seed);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    sample: (items, count) => {
      const pool = [...items];
      const out: (typeof items)[number][] = [];
      while (out.length < count && pool.length > 0) {
        out.push(pool.splice(Math.floor(next() * pool.length), 1)[0]!);
      }
      return out;
    },
    weighted: (weights) => {
      const total = weights.reduce((a, b) => a + b, 0);
      let r = next() * total;
      for (let i = 0; i < weights.length; i++) {
        r -= weights[i]!;
        if (r < 0) return i;
      }
      return weights.length - 1;
    },
  };
  return random;
}

/** A UUID (version 4 layout) derived from `seed`: stable across runs, unique per seed. */
export function uuidFrom(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A short lowercase hex id derived from `seed`. */
export function shortId(seed: string, length = 10): string {
  return createHash('sha256').update(seed).digest('hex').slice(0, length);
}
