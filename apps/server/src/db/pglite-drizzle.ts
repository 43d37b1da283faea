// What drizzle's PGlite session is given as its client: the PGlite instance, minus one cost.
//
// drizzle reads timestamps, dates, intervals and a few array types as text (it maps them itself), and asks PGlite
// for that with a `parsers` option on every statement it sends (drizzle-orm/pglite/session.js). PGlite answers
// the option by copying its whole parser table, one entry per type of the database (over 300), for that statement:
// about 80 µs each on this machine, more than a small statement's own work. So the database parses those types as
// text itself (TEXT_TYPES, given to PGlite.create), and drizzle's statements reach it without the option: same
// rows, no copy. An option with any other parser is passed on as it came.
//
// Each statement then runs prepared, parsed and planned once per text (pglite-statements.ts).
import { types, type PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import type { PgliteStatements } from './pglite-statements.js';

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

type Query = Transaction['query'];

const querying =
  (query: Query): Query =>
  (text, params, options) =>
    query(text, params, withoutRedundantParsers(options));

/**
 * The client for drizzle: its statements and transactions, each statement prepared and without the redundant
 * option. The instance must have been created with `parsers: TEXT_TYPES` (and may add its own for other types).
 */
export function drizzleClient(client: PGlite, statements: PgliteStatements): PGlite {
  const forDrizzle = {
    query: querying(statements.query),
    transaction: <T>(callback: (tx: Transaction) => Promise<T>) =>
      client.transaction((tx) => callback({ ...tx, query: querying(statements.inTransaction(tx)) })),
  };
  return forDrizzle as unknown as PGlite;
}
