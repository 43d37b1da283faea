// What every demo builder shares: the seed's one random sequence, its ids, the anchor and small helpers.
import { STAT_INTERVAL } from '../demo-series.js';
import { createIdFactory, createRandom, hashString, type IdFactory, type Random } from '../random.js';
import { regions, type Place } from '../reference-data.js';

export const DEMO_SEED = 'careplane-demo';
export const DEMO_DOMAIN = 'careplane.local';

/** The demo's "now": the load time rounded down to the 15-minute stats grid. */
export const demoAnchor = (now: number) => Math.floor(now / STAT_INTERVAL) * STAT_INTERVAL;

/** The named users live and work in the first region. */
export const bangkok = regions[0]!;

export interface SeedContext {
  seed: string;
  anchor: number;
  /**
   * One sequence for the whole data set: the builders draw from it in a fixed order (see demo-data.ts),
   * so calling them in another order, or drawing more in one of them, changes every later row.
   */
  random: Random;
  id: IdFactory;
  seedHash: number;
  /** The named admin (people.ts), who creates the organisations and devices. */
  adminId: string;
  /** The anchor minus `milliseconds`, as a timestamp. */
  ago: (milliseconds: number) => number;
  date: (milliseconds: number) => Date;
  /** createdAt and updatedAt, both `milliseconds` before the anchor. */
  stamp: (milliseconds: number) => { createdAt: Date; updatedAt: Date };
}

export function createSeedContext(seed: string, now: number): SeedContext {
  const anchor = demoAnchor(now);
  const id = createIdFactory(seed);
  const ago = (milliseconds: number) => anchor - milliseconds;
  const date = (milliseconds: number) => new Date(ago(milliseconds));
  return {
    seed,
    anchor,
    random: createRandom(seed),
    id,
    seedHash: hashString(seed),
    adminId: id('user', 'admin'),
    ago,
    date,
    stamp: (milliseconds) => ({ createdAt: date(milliseconds), updatedAt: date(milliseconds) }),
  };
}

export const iso = (timestamp: number) => new Date(timestamp).toISOString();

export function streetAddress(random: Random, place: Place, title: string) {
  const geo = {
    lat: Math.round((place.lat + random.float(-0.02, 0.02, 6)) * 1e6) / 1e6,
    lng: Math.round((place.lng + random.float(-0.02, 0.02, 6)) * 1e6) / 1e6,
  };
  return {
    geo,
    address: {
      title,
      street: random.pick(place.streets),
      houseNumber: `${random.int(1, 420)}${random.chance(0.3) ? `/${random.int(1, 60)}` : ''}`,
      district: place.district,
      city: place.city,
      county: place.county,
      postalCode: place.postalCode,
      country: 'Thailand',
      geo,
    },
  };
}
