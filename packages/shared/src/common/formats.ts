// Display formats of spec §9: dates as DD.MM.YYYY, date and time with hour and zone, unix dates as
// DD/MM/YYYY, and text truncated at 10, 20, 40 or 60 characters. Intl only: no date library, no DOM.
// In Thai the shapes stay and the year is the Buddhist era (2020 → 2563), as Thai readers expect on screen
// (decision 047); numbers and times follow the language's locale.
import { DEFAULT_LANGUAGE, localeOf, type Language } from '../i18n/language-tags.ts';

/** A moment as the API gives it: a Date, an ISO string or milliseconds since the epoch. */
export type DateInput = Date | string | number;

/** What every formatter shows for a missing or unreadable date. */
export const NO_DATE = '';

const toDate = (value: DateInput | null | undefined): Date | undefined => {
  if (value === null || value === undefined || value === '') return undefined;
  const date = value instanceof Date ? new Date(value.getTime()) : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
};

/** How a reader wants to see a value: their language, and for dates the era counted in. */
export interface FormatStyle {
  language?: Language;
  /** The era of years: `buddhist` (common era + 543) by default in Thai, `common` elsewhere. */
  era?: 'buddhist' | 'common';
}

// The console shows one language at a time, so it sets the style every display format falls back to when it
// changes language (lib/i18n). The server never sets it: it formats for many readers at once and passes a
// style explicitly where it needs one.
let defaultStyle: Required<FormatStyle> = { language: DEFAULT_LANGUAGE, era: 'common' };

/** The language (and era) formats use when none is given: the console's current language. */
export function setDefaultFormatLanguage(language: Language) {
  defaultStyle = { language, era: eraOf(language) };
}

const eraOf = (language: Language): 'buddhist' | 'common' => (language === 'th' ? 'buddhist' : 'common');

function resolveStyle(style: FormatStyle | undefined): Required<FormatStyle> {
  if (!style) return defaultStyle;
  const language = style.language ?? defaultStyle.language;
  return { language, era: style.era ?? (style.language ? eraOf(language) : defaultStyle.era) };
}

/** The Buddhist era's year of a common-era year: the Thai solar calendar counts from 543 BCE. */
const BUDDHIST_ERA_OFFSET = 543;
const yearIn = (year: string, era: 'buddhist' | 'common') =>
  era === 'buddhist' && year ? String(Number(year) + BUDDHIST_ERA_OFFSET) : year;

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
  const time = date.getTime();
  const offset = time >= WALL_FROM && time < WALL_UNTIL ? offsetOn(Math.floor(time / DAY), timeZone) : NaN;
  return Number.isNaN(offset) ? intlPartsOf(date, timeZone, withTime) : wallPartsOf(time + offset, offset);
}

function intlPartsOf(date: Date, timeZone: string | undefined, withTime: boolean): Record<Part, string> {
  const parts = { day: '', month: '', year: '', hour: '', minute: '', timeZoneName: '' };
  for (const part of formatterFor(timeZone, withTime).formatToParts(date)) {
    if (part.type in parts) parts[part.type as Part] = part.value;
  }
  return parts;
}

// Asking Intl for a moment's parts costs about 5 µs, and a list or an export of thousands of rows writes a date
// or two in each. A zone keeps one offset for days and months between its changes, so Intl is asked for the
// offset once per day of dates (at the day's first and last second), and each moment of a day with one offset
// is read as wall-clock time, UTC shifted by that offset. Intl itself answers for a day on which the offset
// changes, an offset that is not a whole number of minutes (local mean times until the 20th century), and
// moments outside 1900–9999 (years written in fewer or more than four digits, the Julian calendar Intl uses
// before 1582).
const DAY = 86_400_000;
const MINUTE = 60_000;
const WALL_FROM = Date.UTC(1900, 0, 1);
const WALL_UNTIL = Date.UTC(9999, 11, 31);
/** Days kept across all zones (a few megabytes), enough for every birth date of a century in one zone. */
const DAYS_KEPT = 50_000;

/** Each zone's offset in milliseconds by day since the epoch (UTC), NaN where Intl must answer. */
const dayOffsets = new Map<string, Map<number, number>>();
let daysKept = 0;

function offsetOn(day: number, timeZone: string | undefined): number {
  const zone = timeZone ?? '';
  const known = dayOffsets.get(zone)?.get(day);
  if (known !== undefined) return known;
  const first = offsetAt(day * DAY, timeZone);
  const last = offsetAt((day + 1) * DAY - 1000, timeZone);
  const offset = first === last && first % MINUTE === 0 ? first : NaN;
  if (daysKept >= DAYS_KEPT) {
    dayOffsets.clear();
    daysKept = 0;
  }
  let days = dayOffsets.get(zone);
  if (!days) {
    days = new Map();
    dayOffsets.set(zone, days);
  }
  days.set(day, offset);
  daysKept++;
  return offset;
}

/** The zone's offset at a moment, from the offset Intl names (`GMT+07:00`, `GMT-00:44:30`, `GMT`). */
function offsetAt(time: number, timeZone: string | undefined): number {
  const name = intlPartsOf(new Date(time), timeZone, true).timeZoneName;
  const match = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(name);
  if (!match) return NaN;
  const [, sign, hours = '0', minutes = '0', seconds = '0'] = match;
  const size = (Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds)) * 1000;
  return sign === '-' ? -size : size;
}

const pad2 = (value: number) => (value < 10 ? `0${value}` : String(value));

/** The parts of a wall-clock moment (milliseconds read as UTC), named as Intl names them. */
function wallPartsOf(wall: number, offset: number): Record<Part, string> {
  const date = new Date(wall);
  const minutes = Math.abs(offset) / MINUTE;
  return {
    day: pad2(date.getUTCDate()),
    month: pad2(date.getUTCMonth() + 1),
    year: String(date.getUTCFullYear()),
    hour: pad2(date.getUTCHours()),
    minute: pad2(date.getUTCMinutes()),
    timeZoneName:
      offset === 0
        ? 'GMT'
        : `GMT${offset < 0 ? '-' : '+'}${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`,
  };
}

/** `GMT` alone means offset zero: name it `GMT+00:00` so every zone reads alike. */
const offsetOf = (name: string) => (name === 'GMT' || name === 'UTC' ? 'GMT+00:00' : name);

/** DD.MM.YYYY, e.g. 01.12.2020 (in Thai 01.12.2563). */
export function formatDate(
  value: DateInput | null | undefined,
  timeZone?: string,
  style?: FormatStyle,
): string {
  const date = toDate(value);
  if (!date) return NO_DATE;
  const { day, month, year } = partsOf(date, timeZone, false);
  return `${day}.${month}.${yearIn(year, resolveStyle(style).era)}`;
}

/** DD.MM.YYYY HH:mm with the zone's offset, e.g. 01.12.2020 14:05 GMT+07:00 (in Thai 01.12.2563 …). */
export function formatDateTime(
  value: DateInput | null | undefined,
  timeZone?: string,
  style?: FormatStyle,
): string {
  const date = toDate(value);
  if (!date) return NO_DATE;
  const { day, month, year, hour, minute, timeZoneName } = partsOf(date, timeZone, true);
  const shownYear = yearIn(year, resolveStyle(style).era);
  return `${day}.${month}.${shownYear} ${hour}:${minute} ${offsetOf(timeZoneName)}`;
}

/**
 * A calendar month given as YYYY-MM (as the statistics label theirs), shown short as MM.YY, e.g. 12.25; in
 * Thai the year is the Buddhist era's (12.68). Anything else is shown as given.
 */
export function formatMonth(yearMonth: string, style?: FormatStyle): string {
  const match = /^(\d{4})-(\d{2})$/.exec(yearMonth);
  if (!match) return yearMonth;
  const [, year = '', month = ''] = match;
  return `${month}.${yearIn(year, resolveStyle(style).era).slice(-2)}`;
}

const timeFormatters = new Map<string, Intl.DateTimeFormat>();
/** The time of day, HH:mm in 24-hour time in the language's locale, e.g. 14:05. */
export function formatTime(
  value: DateInput | null | undefined,
  timeZone?: string,
  style?: FormatStyle,
): string {
  const date = toDate(value);
  if (!date) return NO_DATE;
  const locale = localeOf(resolveStyle(style).language);
  const key = `${locale}|${timeZone ?? ''}`;
  let format = timeFormatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    timeFormatters.set(key, format);
  }
  return format.format(date);
}

const numberFormatters = new Map<string, Intl.NumberFormat>();
/** A number for people, grouped and with the decimal sign of the language's locale, e.g. 1,234.5. */
export function formatNumber(
  value: number | null | undefined,
  style?: FormatStyle & { maximumFractionDigits?: number },
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const locale = localeOf(resolveStyle(style).language);
  const digits = style?.maximumFractionDigits ?? 2;
  const key = `${locale}|${digits}`;
  let format = numberFormatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: digits });
    numberFormatters.set(key, format);
  }
  return format.format(value);
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
  style?: FormatStyle,
): string {
  const text = formatDateTime(value, timeZone, style);
  return text ? `${text} (${timeZone})` : NO_DATE;
}

/** DD/MM/YYYY of a unix time in seconds, e.g. 1606780800 → 01/12/2020 (in UTC). */
export function formatUnixDate(
  seconds: number | null | undefined,
  timeZone?: string,
  style?: FormatStyle,
): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return NO_DATE;
  const date = toDate(seconds * 1000);
  if (!date) return NO_DATE;
  const { day, month, year } = partsOf(date, timeZone, false);
  return `${day}/${month}/${yearIn(year, resolveStyle(style).era)}`;
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

// The units of a waiting time as people abbreviate them in each language (Thai: วัน, ชม., นาที). Under a minute
// is a span too ('less than a minute', not 'just now'): the console puts it in a sentence after 'for' / 'นาน'.
const waitedUnits: Record<Language, { now: string; d: string; h: string; min: string }> = {
  en: { now: 'less than a minute', d: 'd', h: 'h', min: 'min' },
  th: { now: 'ไม่ถึง 1 นาที', d: 'วัน', h: 'ชม.', min: 'นาที' },
};

/**
 * How long something has waited, for people on the move: the two largest units, e.g. `45 min`, `2 h 5 min`,
 * `3 d 4 h` (in Thai `2 ชม. 5 นาที`); under a minute `less than a minute`. Negative spans (a clock ahead of the
 * server's) count as none.
 */
export function formatWaited(milliseconds: number, style?: FormatStyle): string {
  const unit = waitedUnits[resolveStyle(style).language];
  const minutes = Math.floor(Math.max(0, milliseconds) / 60_000);
  if (minutes < 1) return unit.now;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} ${unit.d} ${hours} ${unit.h}` : `${days} ${unit.d}`;
  if (hours > 0) return rest > 0 ? `${hours} ${unit.h} ${rest} ${unit.min}` : `${hours} ${unit.h}`;
  return `${rest} ${unit.min}`;
}
