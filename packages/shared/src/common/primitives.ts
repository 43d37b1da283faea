// Bounded building blocks for every contract: no unbounded string, list or object crosses the API.
import { z } from 'zod';
// Refusals read as sentences naming the field, wherever a contract is parsed.
import './validation-messages.ts';
import { isPhoneNumber, PHONE_NUMBER_MESSAGE } from './phone-numbers.ts';

export { PHONE_NUMBER_MESSAGE } from './phone-numbers.ts';

export const MAX_TEXT = 2000;
export const MAX_SHORT_TEXT = 255;
export const MAX_LIST = 500;

const noNul = (value: string) => !value.includes('\u0000');

/**
 * Control characters other than tab and line breaks (C0, DEL, C1), and the characters that override or embed a
 * direction of writing (U+202A–U+202E, U+2066–U+2069): none is typed as text, and a direction override shows a
 * name on screen other than the one a signed receipt prints ("Warfarin\u202e gm 0005").
 */
// eslint-disable-next-line no-control-regex -- naming control characters is the point
const UNTYPED = /[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
const typed = (value: string) => !UNTYPED.test(value);
export const UNTYPED_MESSAGE = 'Must not contain control or text-direction characters';
/** Whether every text inside a JSON value (its strings, its keys) is typed text, as `typed` says. */
export function typedThroughout(value: unknown): boolean {
  if (typeof value === 'string') return typed(value);
  if (Array.isArray(value)) return value.every(typedThroughout);
  if (value && typeof value === 'object') {
    return Object.entries(value).every(([key, inner]) => typed(key) && typedThroughout(inner));
  }
  return true;
}
/** Something to see once blanks and zero-width characters (U+200B–U+200D, U+2060, U+FEFF) are set aside. */
const visible = (value: string) => /[^\s\u200B-\u200D\u2060\uFEFF]/.test(value);

/** A bounded string of what people type: no NUL, control or text-direction characters. */
export const text = (max = MAX_SHORT_TEXT) =>
  z
    .string()
    .max(max)
    .refine(noNul, { message: 'Must not contain NUL characters' })
    .refine(typed, { message: UNTYPED_MESSAGE });

/**
 * A part of a person's name (a title, a first or last name, in either script): kept without the blanks around it,
 * so a name of blanks only is an empty one and never shows as a name.
 */
export const nameText = (max = MAX_SHORT_TEXT) =>
  z
    .string()
    .trim()
    .max(max)
    .refine(noNul, { message: 'Must not contain NUL characters' })
    .refine(typed, { message: UNTYPED_MESSAGE });

/** The same, with something visible in it: only spaces or zero-width characters read as missing. */
export const requiredText = (max = MAX_SHORT_TEXT) =>
  z
    .string()
    .trim()
    .min(1, { message: 'Required', abort: true })
    .max(max)
    .refine(visible, { message: 'Required' })
    .refine(noNul, { message: 'Must not contain NUL characters' })
    .refine(typed, { message: UNTYPED_MESSAGE });

/**
 * A phone number as people write it ("+66 81 234 5678", "02-123-4567 ต่อ 12", "1669"), stored as written; an
 * empty text removes it. Letters and words ("call me maybe") are refused: a courier dials what is kept.
 */
export const phoneNumberSchema = (max = 32) =>
  text(max).refine((value) => value === '' || isPhoneNumber(value), { message: PHONE_NUMBER_MESSAGE });

/** A record's id. A wrong one reads 'Must be a uuid'; a missing one the sentence every missing value reads
 * ("Device is required."), not a complaint about its form. */
export const uuidSchema = z.uuid({
  error: (issue) => (issue.input === undefined ? undefined : 'Must be a uuid'),
});

/** Whether a value can name a record at all (a uuid): an address with anything else names no page. */
export const isRecordId = (value: string): boolean => uuidSchema.safeParse(value).success;

/** Milliseconds since the epoch. */
export const epochMillis = z.number().int().min(0).max(8_640_000_000_000_000);

export const isoDateTime = z.string();

/**
 * How far ahead of the server's clock the time of something that happened (a reading, an alert) may be. A
 * clock drifts by seconds; from further ahead it is a wrong clock (local time sent as UTC, a reset RTC) or a typo,
 * and stored it would stay the newest record for good.
 */
export const MAX_CLOCK_AHEAD_MS = 5 * 60_000;
export const LATER_THAN_NOW = 'Must not be later than now (5 minutes of clock difference are allowed)';
/** The earliest time a record of the platform's may say something happened at: no care record is older. */
export const EARLIEST_EVENT_TIME = Date.UTC(2000, 0, 1);
export const EARLIER_THAN_2000 = 'Must not be earlier than 2000-01-01';
/** When something happened, in milliseconds since the epoch: from 2000 to now (a clock's drift allowed). */
export const happenedAt = (beforeItsTime = EARLIER_THAN_2000) =>
  epochMillis
    .refine((time) => time >= EARLIEST_EVENT_TIME, { message: beforeItsTime })
    .refine((time) => time <= Date.now() + MAX_CLOCK_AHEAD_MS, { message: LATER_THAN_NOW });

/** The latest moment a date and time sent to the API may name: the last one written with four digits. */
export const LATEST_DATE_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
export const DATE_TIME_OUT_OF_RANGE = 'Must be between 1970 and 9999';
/**
 * A date and time sent to the API, ISO 8601 with its offset, from the epoch (where every millisecond count of the
 * API starts) to the year 9999. The pattern alone takes the year 0000, which the database refuses without naming
 * the field.
 */
export const dateTimeInput = z.iso.datetime({ offset: true }).refine(
  (value) => {
    const time = Date.parse(value);
    return time >= 0 && time <= LATEST_DATE_TIME;
  },
  { message: DATE_TIME_OUT_OF_RANGE },
);

/** Structured JSON kept as an object; its size is bounded by the body limit and the depth check. */
export const jsonObject = z.record(z.string().max(MAX_SHORT_TEXT), z.unknown());

/**
 * The most an alert's free fields may hold, as JSON in UTF-8 bytes: a device's alert reading, an alert's data and
 * what its closing says beside the note. Every alert list and the live stream carry them (decisions 064, 111).
 */
export const MAX_ALERT_FIELDS_BYTES = 4096;
export const ALERT_FIELDS_TOO_LARGE = 'At most 4 KB of fields';
const utf8 = new TextEncoder();
/** Whether a JSON value holds at most MAX_ALERT_FIELDS_BYTES once written out. */
export const withinAlertFieldsBound = (value: unknown): boolean =>
  utf8.encode(JSON.stringify(value) ?? '').length <= MAX_ALERT_FIELDS_BYTES;

export const geoSchema = z.strictObject({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
});
export type Geo = z.infer<typeof geoSchema>;

/** A street address (users, service providers, prescriptions). */
export const streetAddressSchema = z.strictObject({
  title: text().optional(),
  street: text().optional(),
  houseNumber: text(40).optional(),
  district: text().optional(),
  city: text().optional(),
  county: text().optional(),
  postalCode: text(20).optional(),
  country: text(80).optional(),
  geo: geoSchema.optional(),
});
export type StreetAddress = z.infer<typeof streetAddressSchema>;

/** The command center address: every part named by the spec. */
export const commandCenterAddressSchema = z.strictObject({
  title: requiredText(),
  street: requiredText(),
  houseNumber: text(40).optional(),
  district: text().optional(),
  city: requiredText(),
  county: text().optional(),
  postalCode: text(20).optional(),
  country: requiredText(80),
  geo: geoSchema.optional(),
});
export type CommandCenterAddress = z.infer<typeof commandCenterAddressSchema>;

/** A place: patient and device locations. */
export const locationSchema = z.strictObject({
  title: text().optional(),
  description: text(MAX_TEXT).optional(),
  address: streetAddressSchema.optional(),
  geo: geoSchema.optional(),
});
export type Location = z.infer<typeof locationSchema>;

export const idList = z.array(uuidSchema).max(MAX_LIST);

/** Fields every stored record answers with. */
export const recordSchema = {
  id: uuidSchema,
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
};

/** An embedded related record: its own fields and whatever relations were asked for. */
export const embedded = z.looseObject({ id: z.string() });
export const embeddedList = z.array(embedded);
