// Display formats of spec §9: dates as DD.MM.YYYY, date and time with hour and zone, unix dates as
// DD/MM/YYYY, and text truncated at 10, 20, 40 or 60 characters. Intl only: no date library, no DOM.

/** A moment as the API gives it: a Date, an ISO string or milliseconds since the epoch. */
export type DateInput = Date | string | number;

/** What every formatter shows for a missing or unreadable date. */
export const NO_DATE = '';

const toDate = (value: DateInput | null | undefined): Date | undefined => {
  if (value === null || value === undefined || value === '') return undefined;
  const date = value instanceof Date ? new Date(value.getTime()) : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
};

type Part = 'day' | 'month' | 'year' | 'hour' | 'minute' | 'timeZoneName';

// Building a formatter costs far more than using one (a list or an export formats thousands of dates).
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string | undefined, withTime: boolean) {
  const key = `${timeZone ?? ''}|${withTime}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      ...(withTime
        ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'longOffset' }
        : {}),
    });
    formatters.set(key, format);
  }
  return format;
}

/** The calendar parts of a moment in a time zone (the runtime's own when none is given). */
function partsOf(date: Date, timeZone: string | undefined, withTime: boolean): Record<Part, string> {
  const format = formatterFor(timeZone, withTime);
  const parts = { day: '', month: '', year: '', hour: '', minute: '', timeZoneName: '' };
  for (const part of format.formatToParts(date)) {
    if (part.type in parts) parts[part.type as Part] = part.value;
  }
  return parts;
}

/** `GMT` alone means offset zero: name it `GMT+00:00` so every zone reads alike. */
const offsetOf = (name: string) => (name === 'GMT' || name === 'UTC' ? 'GMT+00:00' : name);

/** DD.MM.YYYY, e.g. 01.12.2020. */
export function formatDate(value: DateInput | null | undefined, timeZone?: string): string {
  const date = toDate(value);
  if (!date) return NO_DATE;
  const { day, month, year } = partsOf(date, timeZone, false);
  return `${day}.${month}.${year}`;
}

/** DD.MM.YYYY HH:mm with the zone's offset, e.g. 01.12.2020 14:05 GMT+07:00. */
export function formatDateTime(value: DateInput | null | undefined, timeZone?: string): string {
  const date = toDate(value);
  if (!date) return NO_DATE;
  const { day, month, year, hour, minute, timeZoneName } = partsOf(date, timeZone, true);
  return `${day}.${month}.${year} ${hour}:${minute} ${offsetOf(timeZoneName)}`;
}

/** The runtime's own time zone by name (the viewer's, in a browser), e.g. Asia/Bangkok; UTC if it has none. */
export function viewerTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * DD.MM.YYYY HH:mm with the zone's offset and name, e.g. 01.12.2020 14:05 GMT+07:00 (Asia/Bangkok): for a
 * page that shows times to anyone, wherever the file or its signer came from, and must say which zone it uses.
 */
export function formatDateTimeWithZone(
  value: DateInput | null | undefined,
  timeZone = viewerTimeZone(),
): string {
  const text = formatDateTime(value, timeZone);
  return text ? `${text} (${timeZone})` : NO_DATE;
}

/** DD/MM/YYYY of a unix time in seconds, e.g. 1606780800 → 01/12/2020 (in UTC). */
export function formatUnixDate(seconds: number | null | undefined, timeZone?: string): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return NO_DATE;
  const date = toDate(seconds * 1000);
  if (!date) return NO_DATE;
  const { day, month, year } = partsOf(date, timeZone, false);
  return `${day}/${month}/${year}`;
}

/** The truncation lengths of spec §9. */
export const truncationLengths = { xs: 10, sm: 20, md: 40, lg: 60 } as const;
export type TruncationLength = (typeof truncationLengths)[keyof typeof truncationLengths];

const ELLIPSIS = '…';

/**
 * The text cut to `length` characters followed by an ellipsis when it is longer; shorter text is unchanged.
 * Counts characters as the reader sees them (code points), so an emoji or a Thai vowel mark is never halved.
 */
export function truncate(value: string | null | undefined, length: TruncationLength): string {
  if (!value) return '';
  const characters = Array.from(value);
  if (characters.length <= length) return value;
  return `${characters.slice(0, length).join('').trimEnd()}${ELLIPSIS}`;
}

/**
 * A SHA-256 (hex) shortened for people to compare: the first and last eight digits, `9f86d081…b0f00a08`. The
 * console and the authenticator show a document's hash the same way.
 */
export function shortSha256(hex: string): string {
  return hex.length > 20 ? `${hex.slice(0, 8)}…${hex.slice(-8)}` : hex;
}

/**
 * How long something has waited, for people on the move: the two largest units, e.g. `45 min`, `2 h 5 min`,
 * `3 d 4 h`; under a minute `just now`. Negative spans (a clock ahead of the server's) count as none.
 */
export function formatWaited(milliseconds: number): string {
  const minutes = Math.floor(Math.max(0, milliseconds) / 60_000);
  if (minutes < 1) return 'just now';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return rest > 0 ? `${hours} h ${rest} min` : `${hours} h`;
  return `${rest} min`;
}
