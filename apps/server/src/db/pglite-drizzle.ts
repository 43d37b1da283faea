// drizzle's PGlite session, minus one cost.
//
// drizzle reads timestamps, dates, intervals and a few array types as text (it maps them itself), and asks PGlite
// for that with a `parsers` option on every statement it sends (drizzle-orm/pglite/session.js). PGlite answers
// the option by copying its whole parser table, one entry per type of the database (over 300), for that statement:
// about 80 µs each on this machine, more than a small statement's own work. So the database parses those types as
// text itself (TEXT_TYPES, given to PGlite.create on its thread, pglite-thread.ts), and drizzle's statements
// reach it without the option (pglite-remote.ts): same rows, no copy, and nothing but plain values to send to
// the thread. An option with any other parser is passed on as it came (and refused there: a function cannot
// cross threads).
import { types, type QueryOptions } from '@electric-sql/pglite';

/** The types drizzle's PGlite session reads as text: timestamp(tz), interval, date, and numeric[], timestamp[],
 * timestamptz[], interval[], date[] by their OIDs. */
const DRIZZLE_TEXT_TYPES = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231,
  1115,
  1185,
  1187,
  1182,
];
const TEXT_TYPE_KEYS = new Set(DRIZZLE_TEXT_TYPES.map(String));

const asText = (value: string) => value;

/** The client-wide parsers that make drizzle's per-statement option redundant. */
export const TEXT_TYPES: Record<number, (value: string) => string> = Object.fromEntries(
  DRIZZLE_TEXT_TYPES.map((type) => [type, asText]),
);

/** The options without `parsers` when they only ask for what the client already does; else as they came. */
export function withoutRedundantParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  const parsers = options?.parsers;
  if (!parsers || !Object.keys(parsers).every((key) => TEXT_TYPE_KEYS.has(key))) return options;
  const rest = { ...options };
  delete rest.parsers;
  return rest;
}
