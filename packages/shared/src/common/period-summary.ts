// A period of time-stamped records summed up by the server for a chart: the period cut into equal parts, and for
// each part with records its count and, for each number the records carry, the lowest, mean and highest value.
// An IoT device's readings (iot.contract.ts) and a device's stats (devices.contract.ts) are summed up this way.
import { z } from 'zod';
import { queryInteger } from './http.ts';
import { epochMillis } from './primitives.ts';

/** The most parts a period is cut into. */
export const MAX_SUMMARY_BUCKETS = 500;
/** Parts a period is cut into when the request does not say. */
export const DEFAULT_SUMMARY_BUCKETS = 120;

/** A moment in a query string: milliseconds since the epoch, in digits. */
const queryMillis = z
  .string()
  .regex(/^\d{1,16}$/, { message: 'Must be a time in milliseconds' })
  .transform(Number)
  .pipe(epochMillis);

/** The check of a period's end (its generic shape hides the parsed fields from the check's type). */
const afterFrom = (query: { from: number; to: number }) => query.to > query.from;

/**
 * `…&from=..&to=..&buckets=120` beside the query's own parameters: two moments (both included) and the number of
 * equal parts between them; the end must come after the start.
 */
export function periodQuerySchema<S extends z.ZodRawShape>(shape: S) {
  return z
    .strictObject({
      ...shape,
      from: queryMillis,
      to: queryMillis,
      buckets: queryInteger(z.number().int().min(1).max(MAX_SUMMARY_BUCKETS)).default(
        DEFAULT_SUMMARY_BUCKETS,
      ),
    })
    .refine((query) => afterFrom(query as { from: number; to: number }), {
      message: 'Must be after from',
      path: ['to'],
    });
}

const summaryValueSchema = z.object({ min: z.number(), avg: z.number(), max: z.number() });

/** One part of the period that has records: its first moment (it lasts `bucketMillis`), count and numbers. */
export const summaryBucketSchema = z.object({
  from: z.number().int(),
  count: z.number().int(),
  values: z.record(z.string(), summaryValueSchema),
});
export type SummaryBucket = z.infer<typeof summaryBucketSchema>;

/** The period, its parts' length, every record in it (`total`) and its parts with records, oldest first. */
export const periodSummaryShape = {
  from: z.number().int(),
  to: z.number().int(),
  bucketMillis: z.number().int(),
  total: z.number().int(),
  buckets: z.array(summaryBucketSchema),
};
export type PeriodSummary = z.infer<z.ZodObject<typeof periodSummaryShape>>;
