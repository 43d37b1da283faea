// A period of time-stamped records summed up in the database for a chart (packages/shared/src/common/
// period-summary.ts): the period cut into equal parts; per part with records its count and, for each number the
// records carry, the lowest, mean and highest value. One statement; the rows never leave the database. An IoT
// device's readings and a device's stats are summed up this way.
import { type SQL, sql } from 'drizzle-orm';
import type { PeriodSummary, SummaryBucket } from '@careplane/shared/common/period-summary';
import type { Executor } from '@/db/client.js';

export interface PeriodQuery {
  from: number;
  to: number;
  buckets: number;
}

export interface PeriodRecords {
  /**
   * A select of the period's records as `timestamp` (milliseconds) and `data` (a JSON object whose number fields
   * are summed up), already limited to the period, both ends included.
   */
  records: SQL;
  /**
   * A number as it is summed up, from `field.key`, `field.value` (the JSON value, a number) and `item.data` (the
   * record's object); by default the value as it is.
   */
  number?: SQL;
  /** Number fields that are not summed up (a reading's own `timestamp`). */
  skip?: readonly string[];
}

/** The length of each part: the period, both ends included, cut into `buckets` equal parts. */
export const bucketMillisOf = (query: PeriodQuery) =>
  Math.max(1, Math.ceil((query.to - query.from + 1) / query.buckets));

export async function summarizePeriod(
  executor: Executor,
  query: PeriodQuery,
  { records, number = sql`field.value::float8`, skip = [] }: PeriodRecords,
): Promise<PeriodSummary> {
  const bucketMillis = bucketMillisOf(query);
  const bucket = sql`least(("timestamp" - ${query.from}::bigint) / ${bucketMillis}::bigint, ${query.buckets - 1}::bigint)::int`;
  const skipped = skip.length
    ? sql` and field.key not in (${sql.join(
        skip.map((key) => sql`${key}`),
        sql`, `,
      )})`
    : sql``;
  // Both drivers answer { rows }; the result type of execute() is driver-generic.
  const result: unknown = await executor.execute(sql`
    with records as (${records}),
    items as (select ${bucket} as bucket, data from records)
    select bucket, null::text as key, count(*)::int as n, null::float8 as lo, null::float8 as mean, null::float8 as hi
      from items group by bucket
    union all
    select bucket, numbers.key, count(*)::int, min(numbers.number), avg(numbers.number), max(numbers.number)
      from items as item, lateral (
        select field.key, ${number} as number
        from jsonb_each(item.data) as field
        where jsonb_typeof(field.value) = 'number'${skipped}
      ) as numbers
      group by bucket, numbers.key
    order by 1, 2 nulls first`);
  const { rows } = result as {
    rows: (Record<'bucket' | 'n' | 'lo' | 'mean' | 'hi', unknown> & { key: string | null })[];
  };
  const buckets: SummaryBucket[] = [];
  for (const row of rows) {
    if (row.key === null) {
      buckets.push({
        from: query.from + Number(row.bucket) * bucketMillis,
        count: Number(row.n),
        values: {},
      });
    } else if (row.lo !== null && row.mean !== null && row.hi !== null) {
      buckets.at(-1)!.values[row.key] = {
        min: Number(row.lo),
        avg: Number(row.mean),
        max: Number(row.hi),
      };
    }
  }
  const total = buckets.reduce((sum, one) => sum + one.count, 0);
  return { from: query.from, to: query.to, bucketMillis, total, buckets };
}
