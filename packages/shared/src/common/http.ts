// The HTTP conventions every endpoint shares: list queries, list answers, error bodies.
import { z } from 'zod';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 200;

/** The most values a repeated parameter (`filters`, `filtersLike`, `sort`, `relations`) takes. */
export const MAX_REPEATED_VALUES = 50;
export const TOO_MANY_VALUES = `At most ${MAX_REPEATED_VALUES} values`;

const repeatable = z
  .union([z.string().max(4000), z.array(z.string().max(4000))])
  .optional()
  .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]))
  // Counted once read as a list, so a refusal says how many it takes rather than that the list is not valid.
  .pipe(z.array(z.string()).max(MAX_REPEATED_VALUES, { message: TOO_MANY_VALUES }));

/** A number written in a query string; an empty value is refused rather than read as 0. */
const queryNumber = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/, { message: 'Must be a number' })
  .transform(Number)
  .pipe(z.number().finite());

/**
 * A whole number written in a query string, in digits only: "1e2", "0x10", " 5", "5.0" or an empty value are
 * refused rather than read as some number. `bounds` checks the number (its range).
 */
export const queryInteger = (bounds: z.ZodNumber) =>
  z
    .string()
    .regex(/^\d{1,12}$/, { message: 'Must be a whole number' })
    .transform(Number)
    .pipe(bounds);

/**
 * `?filters=a~b&filtersLike=c~d&from=..&to=..&sort=x:asc&relations=a,b.c&limit=20&offset=0`. Any other
 * parameter is refused: a misspelt one (`filter=`, `sort_by=`) would otherwise answer an unfiltered list.
 */
const listQueryShape = {
  filters: repeatable,
  filtersLike: repeatable,
  from: queryNumber.optional(),
  to: queryNumber.optional(),
  sort: repeatable,
  relations: repeatable,
  limit: queryInteger(z.number().int().min(1).max(MAX_PAGE_SIZE)).default(DEFAULT_PAGE_SIZE),
  offset: queryInteger(z.number().int().min(0).max(10_000_000)).default(0),
  /**
   * `count=false` answers the page without counting every match (`total: null`): on a large table the rows
   * come at once, and the console asks for the total apart.
   */
  count: z
    .enum(['true', 'false'], { message: 'Must be true or false' })
    .default('true')
    .transform((value) => value === 'true'),
};

/** The end of a time range said before its start: refused as a period's is, rather than answered empty. */
export const AFTER_FROM = 'Must be after from';
const inOrder = (query: { from?: number | undefined; to?: number | undefined }) =>
  query.from === undefined || query.to === undefined || query.to >= query.from;
const timeRangeRule = { message: AFTER_FROM, path: ['to'] };

export const listQuerySchema = z.strictObject(listQueryShape).refine(inOrder, timeRangeRule);
export type ListQuery = z.infer<typeof listQuerySchema>;

export const relationsQuerySchema = z.strictObject({ relations: repeatable });

/**
 * The body of a write route whose contract declares none: nothing, or an empty object (a client that always sends
 * one). Fields are refused by name ("This field is not accepted: deviceId."), anything else as no body at all: a
 * route that took them silently answered as if they had been read.
 */
export const NO_BODY_MESSAGE = 'Takes no body: send none, or {}';
export const noBodySchema = z
  .strictObject({}, { error: (issue) => (issue.code === 'invalid_type' ? NO_BODY_MESSAGE : undefined) })
  .optional();

/**
 * `GET <list path>/export.csv`: the list's query without paging (every matching record, in the list's order),
 * and which of the resource's column sets to write (a resource may offer several views, such as patients).
 * `relations` is accepted and ignored: the columns say which relations they read.
 */
export const csvExportQuerySchema = z
  .strictObject({
    ...z.object(listQueryShape).omit({ limit: true, offset: true }).shape,
    view: z
      .string()
      .regex(/^[a-z][a-z-]{0,39}$/, { message: 'Must be a view name' })
      .optional(),
    // The reader's time zone (the console sends the browser's): dates and times, and the file's name, are
    // written in it, so a record made at 00:15 in Bangkok is not dated the day before. Without one: UTC.
    timeZone: z
      .string()
      .max(64, { abort: true })
      .refine(isTimeZone, { message: 'Must be a time zone such as Asia/Bangkok' })
      .optional(),
  })
  .refine(inOrder, timeRangeRule);
/** The time zone of the platform's patients and staff: the default for what the server dates itself. */
export const DEFAULT_TIME_ZONE = 'Asia/Bangkok';

/** A time zone this runtime knows by name (`Asia/Bangkok`, `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
export type CsvExportQuery = z.infer<typeof csvExportQuerySchema>;
export type RelationsQuery = z.infer<typeof relationsQuerySchema>;

export const listResponseSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    /** Every match; null when the request said `count=false`. */
    total: z.number().int().nullable(),
    limit: z.number().int(),
    offset: z.number().int(),
  });
export interface ListResponse<T> {
  items: T[];
  /** Every match; null when the request said `count=false`. */
  total: number | null;
  limit: number;
  offset: number;
}

export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const idParamsSchema = z.object({ id: z.uuid({ message: 'Must be a uuid' }) });

/** `{ count, labels, data }`: a total and one series (users per month, devices reporting per hour). */
export const seriesSchema = z.object({
  count: z.number().int(),
  labels: z.array(z.string()),
  data: z.array(z.number()),
});
export type Series = z.infer<typeof seriesSchema>;
