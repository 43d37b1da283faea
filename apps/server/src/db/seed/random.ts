// Deterministic randomness for seed data: a seeded generator, stateless hashes and name-based uuids.
import { v5 as uuidv5 } from 'uuid';

/** Namespace of every seed-derived uuid (RFC 9562 v5, name-based). */
const SEED_NAMESPACE = '6f6b1a52-2c4e-4c1e-9a55-4a1f0c8e5d21';

/** FNV-1a over a string, as an unsigned 32-bit integer. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Mixes integers into one unsigned 32-bit hash (a murmur3-style finaliser per input). */
export function hashInts(...values: number[]): number {
  let hash = 0x9e3779b9;
  for (const value of values) {
    // Fold in the high part too, so millisecond timestamps hash well.
    let k = (value | 0) ^ Math.floor(value / 0x100000000);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    hash ^= k;
    hash = (hash << 13) | (hash >>> 19);
    hash = (Math.imul(hash, 5) + 0xe6546b64) | 0;
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** A number in [0, 1) that depends only on its inputs: noise keyed by (seed, series, time slot). */
export const hashUnit = (...values: number[]) => hashInts(...values) / 0x100000000;

export interface Random {
  /** A float in [0, 1). */
  next: () => number;
  /** An integer in [min, max]. */
  int: (min: number, max: number) => number;
  /** A float in [min, max), rounded to `decimals`. */
  float: (min: number, max: number, decimals?: number) => number;
  chance: (probability: number) => boolean;
  pick: <T>(items: readonly T[]) => T;
  shuffle: <T>(items: readonly T[]) => T[];
  /** A string of digits of the given length. */
  digits: (length: number) => string;
}

/** sfc32 seeded from a string: the same seed always yields the same sequence. */
export function createRandom(seed: string): Random {
  let a = hashString(`${seed}:a`);
  let b = hashString(`${seed}:b`);
  let c = hashString(`${seed}:c`);
  let d = 1;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 0x100000000;
  };
  // Discard the warm-up outputs, as sfc32 recommends.
  for (let index = 0; index < 12; index++) next();

  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const random: Random = {
    next,
    int,
    float: (min, max, decimals = 2) => {
      const factor = 10 ** decimals;
      return Math.round((min + next() * (max - min)) * factor) / factor;
    },
    chance: (probability) => next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new Error('Cannot pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    shuffle: (items) => {
      const copy = [...items];
      for (let index = copy.length - 1; index > 0; index--) {
        const other = Math.floor(next() * (index + 1));
        [copy[index], copy[other]] = [copy[other]!, copy[index]!];
      }
      return copy;
    },
    digits: (length) => Array.from({ length }, () => String(int(0, 9))).join(''),
  };
  return random;
}

/** Stable uuids named by (seed, name): the same seed gives the same id to the same record. */
export function createIdFactory(seed: string) {
  const namespace = uuidv5(seed, SEED_NAMESPACE);
  return (...parts: (string | number)[]) => uuidv5(parts.join(':'), namespace);
}
export type IdFactory = ReturnType<typeof createIdFactory>;
