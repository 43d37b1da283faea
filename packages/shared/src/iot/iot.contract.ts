// IoT devices and their readings: what the API accepts and answers, and how readings are validated.
import { z } from 'zod';
import { defineListSpec, filterKinds as k, resourceEndpoints } from '../common/list-spec.ts';
import { connectionTypes, iotDataTypes, trustLevels, type IotDataType } from '../common/enums.ts';
import { periodQuerySchema, periodSummaryShape } from '../common/period-summary.ts';
import {
  ALERT_FIELDS_TOO_LARGE,
  EARLIEST_EVENT_TIME,
  LATER_THAN_NOW,
  MAX_ALERT_FIELDS_BYTES,
  MAX_CLOCK_AHEAD_MS,
  happenedAt,
  MAX_SHORT_TEXT,
  embedded,
  embeddedList,
  idList,
  isoDateTime,
  jsonObject,
  recordSchema,
  requiredText,
  text,
  typedThroughout,
  UNTYPED_MESSAGE,
  uuidSchema,
  withinAlertFieldsBound,
} from '../common/primitives.ts';

/** The trust level whose submissions must be authenticated with the connection secret. */
export const TRUSTED_LEVEL = 'trusted' satisfies (typeof trustLevels)[number];

/** A heart rate outside these bounds (beats per minute, inclusive inside) opens an alert by default. */
export const HEART_RATE_BOUNDS = { min: 40, max: 130 } as const;

/** The header (HTTP) and MQTT 5 user property that carry a trusted device's connection secret. */
export const CONNECTION_SECRET_HEADER = 'x-connection-secret';
export const CONNECTION_SECRET_PROPERTY = 'connection-secret';

/** MQTT topics of readings: `<prefix>/<hardwareIdentifier>/<dataType>`; the prefix is configurable. */
export const IOT_MQTT_TOPIC_PREFIX = 'careplane/iot';
export const iotMqttTopic = (hardwareIdentifier: string, dataType: string, prefix = IOT_MQTT_TOPIC_PREFIX) =>
  `${prefix}/${hardwareIdentifier}/${dataType}`;

/** Readings one submission may carry: one multi-row insert stays far below the driver's parameter limit. */
export const MAX_READINGS_PER_SUBMISSION = 5000;
/**
 * The most a submission's body may weigh: 5,000 readings with ids of 255 characters (about 1.7 MB) fit with
 * room to spare; the other routes take 1 MiB.
 */
export const MAX_SUBMISSION_BYTES = 4 * 1024 * 1024;

export const MIN_CONNECTION_SECRET_LENGTH = 8;
export const MAX_CONNECTION_SECRET_LENGTH = 512;

// ---------------------------------------------------------------------------------------------------
// Readings

/** How far ahead of the server's clock a reading's time may be (a clock's drift: primitives.ts). */
export const MAX_READING_CLOCK_AHEAD_MS = MAX_CLOCK_AHEAD_MS;
export const READING_IN_THE_FUTURE = LATER_THAN_NOW;
/**
 * The earliest time a reading may carry: a device whose clock was never set, or was reset with its battery,
 * counts from 1970, and a reading stored at such a time would open an alert now for a moment nobody can place.
 */
export const EARLIEST_READING_TIME = EARLIEST_EVENT_TIME;
export const READING_BEFORE_ITS_TIME = "Must not be earlier than 2000-01-01 (the device's clock is not set)";
const readingTime = happenedAt(READING_BEFORE_ITS_TIME);

/**
 * The most an alert reading may hold, as JSON: it is copied into the alert, which every alert list answers. The
 * bound of an alert's data and closing data too (one rule: `withinAlertFieldsBound`).
 */
export const MAX_ALERT_READING_BYTES = MAX_ALERT_FIELDS_BYTES;

const reading = {
  timestamp: readingTime,
  /** A reading that carries an id has a string id (spec §3). */
  id: requiredText().optional(),
};
const measure = (max: number) => z.number().min(0).max(max);
const unit = requiredText(16);

export const batteryReadingSchema = z.strictObject({ ...reading, level: measure(100) });
export const heartRateReadingSchema = z.strictObject({ ...reading, rate: measure(1000) });

/**
 * The scale a temperature reading names, as devices write it: C, °C or Celsius; F, °F or Fahrenheit; K or Kelvin
 * (any case). Undefined for anything else: a reading in an unknown unit cannot be told from a fever, so it is
 * refused rather than read as Celsius.
 */
function temperatureScale(unit: string): 'C' | 'F' | 'K' | undefined {
  const scales: Record<string, 'C' | 'F' | 'K'> = {
    C: 'C',
    CELSIUS: 'C',
    F: 'F',
    FAHRENHEIT: 'F',
    K: 'K',
    KELVIN: 'K',
  };
  return scales[unit.replace('°', '').trim().toUpperCase()];
}
export const UNKNOWN_TEMPERATURE_UNIT =
  'Must be C, F or K (°C, °F, Celsius, Fahrenheit and Kelvin are read too)';
export const BELOW_ABSOLUTE_ZERO = 'Must not be below absolute zero';
export const SYSTOLIC_BELOW_DIASTOLIC = 'Must not be below the diastolic pressure (dias)';

/** A temperature in degrees Celsius, in the scale its reading names (undefined when the unit is unknown). */
function celsius(value: number, unit: unknown): number | undefined {
  const scale = typeof unit === 'string' ? temperatureScale(unit) : undefined;
  if (scale === 'F') return ((value - 32) * 5) / 9;
  if (scale === 'K') return value - 273.15;
  return scale === 'C' ? value : undefined;
}

export const temperatureReadingSchema = z
  .strictObject({
    ...reading,
    value: z.number().min(-300).max(10_000),
    unit: unit.refine((given) => temperatureScale(given) !== undefined, {
      message: UNKNOWN_TEMPERATURE_UNIT,
    }),
  })
  .refine(({ value, unit: given }) => (celsius(value, given) ?? 0) >= -273.15, {
    message: BELOW_ABSOLUTE_ZERO,
    path: ['value'],
  });
export const pressureReadingSchema = z.strictObject({ ...reading, value: measure(1_000_000), unit });
/** Systolic pressure is the higher one: a reading with the two swapped is a device's mistake, not a patient. */
export const bloodPressureReadingSchema = z
  .strictObject({
    ...reading,
    sys: measure(400),
    dias: measure(400),
  })
  .refine(({ sys, dias }) => sys >= dias, { message: SYSTOLIC_BELOW_DIASTOLIC, path: ['sys'] });
/** An alert raised by the device itself: `{ id, timestamp, ... }`; further fields describe it. */
export const alertReadingSchema = z
  .looseObject({ timestamp: readingTime, id: requiredText() })
  .refine((value) => Object.keys(value).length <= 50, { message: 'At most 50 fields' })
  // Its type and message become the title the care team reads: typed text only, as everywhere people read.
  .refine(typedThroughout, { message: UNTYPED_MESSAGE })
  .refine(withinAlertFieldsBound, { message: ALERT_FIELDS_TOO_LARGE });

export const readingSchemas = {
  battery: batteryReadingSchema,
  heart_rate: heartRateReadingSchema,
  temperature: temperatureReadingSchema,
  pressure: pressureReadingSchema,
  blood_pressure: bloodPressureReadingSchema,
  alert: alertReadingSchema,
} satisfies Record<IotDataType, z.ZodType>;

export type BatteryReading = z.infer<typeof batteryReadingSchema>;
export type HeartRateReading = z.infer<typeof heartRateReadingSchema>;
export type TemperatureReading = z.infer<typeof temperatureReadingSchema>;
export type PressureReading = z.infer<typeof pressureReadingSchema>;
export type BloodPressureReading = z.infer<typeof bloodPressureReadingSchema>;
export type AlertReading = z.infer<typeof alertReadingSchema>;
export type Reading = z.infer<(typeof readingSchemas)[IotDataType]>;

const submission = <T extends IotDataType, S extends z.ZodType>(dataType: T, schema: S) =>
  z.strictObject({
    iotDeviceId: uuidSchema,
    dataType: z.literal(dataType),
    data: z.array(schema).min(1, { message: 'At least one reading' }).max(MAX_READINGS_PER_SUBMISSION),
  });

/**
 * `{ iotDeviceId, dataType, data: [readings] }`: a batch of readings of one type from one device.
 * Each reading is checked against its type, so an issue names the bad reading (`data.3.rate`).
 */
export const iotDataSubmissionSchema = z.discriminatedUnion('dataType', [
  submission('battery', batteryReadingSchema),
  submission('heart_rate', heartRateReadingSchema),
  submission('temperature', temperatureReadingSchema),
  submission('pressure', pressureReadingSchema),
  submission('blood_pressure', bloodPressureReadingSchema),
  submission('alert', alertReadingSchema),
]);
export type IotDataSubmission = z.infer<typeof iotDataSubmissionSchema>;

export const iotDataSubmissionResultSchema = z.object({
  iotDeviceId: uuidSchema,
  dataType: z.enum(iotDataTypes),
  /** Readings in the submission. */
  count: z.number().int(),
  /** Readings that were already stored by an earlier, identical submission. */
  duplicates: z.number().int(),
  /** The record of each reading, in the order of `data`. */
  ids: z.array(uuidSchema),
  /** Alerts the readings opened. */
  alertIds: z.array(uuidSchema),
});
export type IotDataSubmissionResult = z.infer<typeof iotDataSubmissionResultSchema>;

// ---------------------------------------------------------------------------------------------------
// Bounds: a reading with a field outside its bounds opens an alert (configurable, IOT_ALERT_BOUNDS)

/** Inclusive bounds of one numeric field of a data type; a missing side is unbounded. */
export interface FieldBounds {
  min?: number;
  max?: number;
}
/** `{ heart_rate: { rate: { min: 40, max: 130 } }, ... }` */
export type ReadingBounds = Partial<Record<IotDataType, Record<string, FieldBounds>>>;

/** The defaults; temperature bounds are in degrees Celsius (Fahrenheit readings are converted). */
export const DEFAULT_READING_BOUNDS: ReadingBounds = {
  heart_rate: { rate: { ...HEART_RATE_BOUNDS } },
  blood_pressure: { sys: { min: 80, max: 180 }, dias: { min: 40, max: 120 } },
  temperature: { value: { min: 35, max: 39.5 } },
  battery: { level: { min: 10 } },
};

const BOUND_ENTRY = /^([a-z_]+)\.([A-Za-z_]+)=(?:(off)|(-?\d+(?:\.\d+)?)?\.\.(-?\d+(?:\.\d+)?)?)$/;

/**
 * Parses `IOT_ALERT_BOUNDS`: comma-separated `<dataType>.<field>=<min>..<max>` (either side may be left
 * out) or `<dataType>.<field>=off`, applied over the defaults. Throws with the offending entry.
 */
export function parseReadingBounds(text: string | undefined, base = DEFAULT_READING_BOUNDS): ReadingBounds {
  const bounds: ReadingBounds = structuredClone(base);
  for (const entry of (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = BOUND_ENTRY.exec(entry);
    const dataType = match?.[1] as IotDataType | undefined;
    if (
      !match ||
      !dataType ||
      !(iotDataTypes as readonly string[]).includes(dataType) ||
      dataType === 'alert'
    ) {
      throw new Error(`"${entry}" is not <dataType>.<field>=<min>..<max> or <dataType>.<field>=off`);
    }
    const field = match[2]!;
    const fields = (bounds[dataType] ??= {});
    if (match[3]) {
      delete fields[field];
      continue;
    }
    const min = match[4] === undefined ? undefined : Number(match[4]);
    const max = match[5] === undefined ? undefined : Number(match[5]);
    if (min === undefined && max === undefined)
      throw new Error(`"${entry}" names neither a minimum nor a maximum`);
    if (min !== undefined && max !== undefined && min > max)
      throw new Error(`"${entry}": minimum above maximum`);
    fields[field] = { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
  }
  return bounds;
}

export interface BoundsBreach {
  field: string;
  value: number;
  min?: number;
  max?: number;
  /** critical when the value is beyond the bound by more than a fifth of it. */
  severity: 'warning' | 'critical';
}

/** The fields of a reading outside their bounds (empty when none is). */
export function boundsBreaches(
  bounds: ReadingBounds,
  dataType: IotDataType,
  reading: Record<string, unknown>,
): BoundsBreach[] {
  const fields = bounds[dataType];
  if (!fields) return [];
  const breaches: BoundsBreach[] = [];
  for (const [field, { min, max }] of Object.entries(fields)) {
    const raw = reading[field];
    if (typeof raw !== 'number') continue;
    // A temperature stored before its unit was checked, in a unit nobody knows, is compared with nothing.
    const value = dataType === 'temperature' && field === 'value' ? celsius(raw, reading.unit) : raw;
    if (value === undefined) continue;
    const below = min !== undefined && value < min;
    const above = max !== undefined && value > max;
    if (!below && !above) continue;
    const margin = below ? min - value : value - max!;
    const edge = Math.abs(below ? min : max!);
    breaches.push({
      field,
      value,
      ...(min === undefined ? {} : { min }),
      ...(max === undefined ? {} : { max }),
      severity: margin > edge * 0.2 ? 'critical' : 'warning',
    });
  }
  return breaches;
}

/** Checks raw readings against their type: the valid ones, and the issues of each invalid one by index. */
export function validateReadings(dataType: IotDataType, raw: readonly unknown[]) {
  const schema = readingSchemas[dataType];
  const valid: Reading[] = [];
  const invalid: { index: number; issues: { path: string; message: string }[] }[] = [];
  raw.forEach((item, index) => {
    const parsed = schema.safeParse(item);
    if (parsed.success) valid.push(parsed.data);
    else {
      invalid.push({
        index,
        issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
      });
    }
  });
  return { valid, invalid };
}

/** Whether a heart rate is outside the bounds that open an alert. */
export const isHeartRateOutOfBounds = (rate: number) =>
  rate < HEART_RATE_BOUNDS.min || rate > HEART_RATE_BOUNDS.max;

export const iotDataRecordSchema = z.object({
  id: uuidSchema,
  createdAt: isoDateTime,
  timestamp: z.number(),
  dataType: z.string(),
  data: z.looseObject({}),
  iotDeviceId: z.string().nullable(),
  createdByUserId: z.string().nullable(),
  iotDevice: embedded.nullable().optional(),
  createdByUser: embedded.nullable().optional(),
});
export type IotDataRecord = z.infer<typeof iotDataRecordSchema>;

export const lastDataSubmissionQuerySchema = z.strictObject({
  dataType: z.enum(iotDataTypes).optional(),
});
export type LastDataSubmissionQuery = z.infer<typeof lastDataSubmissionQuerySchema>;

/** The latest reading of a device, or null when it has sent none (of that type). */
export const lastDataSubmissionSchema = iotDataRecordSchema.nullable();
export type LastDataSubmission = z.infer<typeof lastDataSubmissionSchema>;

/**
 * `?dataType=heart_rate&from=..&to=..&buckets=120`: one type of reading of one device between two moments (both
 * included), cut into equal periods.
 */
export const readingsSummaryQuerySchema = periodQuerySchema({ dataType: z.enum(iotDataTypes) });
export type ReadingsSummaryQuery = z.infer<typeof readingsSummaryQuerySchema>;

/**
 * Every reading of a type in a period, summed up: how many, and per part of the period for each number the
 * readings carry (`rate`, `sys`, …) its lowest, mean and highest value. Parts without readings are left out.
 */
export const readingsSummarySchema = z.object({ dataType: z.enum(iotDataTypes), ...periodSummaryShape });
export type ReadingsSummary = z.infer<typeof readingsSummarySchema>;

/** What this server process has taken in and refused, per channel, since it started. */
const channelCounts = z.object({
  /** Readings stored now. */
  stored: z.number().int(),
  /** Readings already stored (a retry). */
  duplicates: z.number().int(),
  /** Readings refused: invalid, from an unknown device, an unsupported type or without a valid secret. */
  rejected: z.number().int(),
  /** Submissions or messages refused as a whole. */
  rejectedMessages: z.number().int(),
});
export const ingestionCountsSchema = z.object({ http: channelCounts, mqtt: channelCounts });
export type IngestionCounts = z.infer<typeof ingestionCountsSchema>;

// ---------------------------------------------------------------------------------------------------
// IoT devices

const connectionSecretSchema = z
  .string()
  .min(MIN_CONNECTION_SECRET_LENGTH, {
    message: `At least ${MIN_CONNECTION_SECRET_LENGTH} characters`,
  })
  .max(MAX_CONNECTION_SECRET_LENGTH)
  .refine((value) => !value.includes('\u0000'), { message: 'Must not contain NUL characters' });

const iotDeviceFields = {
  deviceIdentifier: text().nullable().optional(),
  trustLevel: z.enum(trustLevels).nullable().optional(),
  connectionMeta: jsonObject.nullable().optional(),
  /** Write-only: stored as a hash, never answered. */
  connectionSecret: connectionSecretSchema.nullable().optional(),
  supportedDataTypes: z
    .array(z.enum(iotDataTypes))
    .max(iotDataTypes.length * 2)
    .transform((values) => [...new Set(values)])
    .optional(),
  /** Client devices this IoT device is linked to, by id. */
  devices: idList.optional(),
  assignedUser: uuidSchema.nullable().optional(),
};

interface SecretRuleInput {
  trustLevel?: string | null | undefined;
  connectionSecret?: string | null | undefined;
}

/**
 * Spec §5: a connectionSecret is required when trustLevel is the trusted level, and a trustLevel is
 * required when a connectionSecret is given. `hasSecret` says whether a secret is (or stays) stored.
 */
export function connectionSecretIssues(trustLevel: string | null | undefined, hasSecret: boolean) {
  const issues: { path: string; message: string }[] = [];
  if (trustLevel === TRUSTED_LEVEL && !hasSecret) {
    issues.push({ path: 'connectionSecret', message: 'Required when the trust level is trusted' });
  }
  if (hasSecret && !trustLevel) {
    issues.push({ path: 'trustLevel', message: 'Required when a connection secret is given' });
  }
  return issues;
}

const checkSecretRule = (value: SecretRuleInput, context: z.RefinementCtx) => {
  for (const issue of connectionSecretIssues(value.trustLevel, Boolean(value.connectionSecret))) {
    context.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  }
};

/** IoT device submit (spec §5). */
export const iotDeviceCreateSchema = z
  .strictObject({
    hardwareIdentifier: requiredText(MAX_SHORT_TEXT),
    model: requiredText(MAX_SHORT_TEXT),
    connectionType: z.enum(connectionTypes),
    allowMultipleDeviceRelationships: z.boolean().default(false),
    ...iotDeviceFields,
  })
  .superRefine(checkSecretRule);
export type IotDeviceCreate = z.infer<typeof iotDeviceCreateSchema>;

/** Only the fields sent change; the secret rule is checked against the stored record too. */
export const iotDeviceUpdateSchema = z
  .strictObject({
    hardwareIdentifier: requiredText(MAX_SHORT_TEXT).optional(),
    model: requiredText(MAX_SHORT_TEXT).optional(),
    connectionType: z.enum(connectionTypes).optional(),
    allowMultipleDeviceRelationships: z.boolean().optional(),
    ...iotDeviceFields,
  })
  .superRefine((value, context) => {
    // With both fields in the body the rule can be checked here; otherwise the stored record decides.
    if (value.trustLevel !== undefined && value.connectionSecret !== undefined) {
      checkSecretRule(value, context);
    }
  });
export type IotDeviceUpdate = z.infer<typeof iotDeviceUpdateSchema>;

export const iotDeviceSchema = z.object({
  ...recordSchema,
  hardwareIdentifier: z.string(),
  deviceIdentifier: z.string().nullable(),
  model: z.string(),
  trustLevel: z.enum(trustLevels).nullable(),
  connectionType: z.enum(connectionTypes),
  connectionMeta: z.looseObject({}).nullable(),
  supportedDataTypes: z.array(z.string()),
  allowMultipleDeviceRelationships: z.boolean(),
  assignedUserId: z.string().nullable(),
  createdByDeviceId: z.string().nullable(),
  devices: embeddedList.optional(),
  assignedUser: embedded.nullable().optional(),
  createdByDevice: embedded.nullable().optional(),
});
export type IotDevice = z.infer<typeof iotDeviceSchema>;

/** The IoT device exists check (spec §5: hardwareIdentifier required). */
export const iotDeviceExistsQuerySchema = z.strictObject({
  hardwareIdentifier: requiredText(MAX_SHORT_TEXT),
});
export type IotDeviceExistsQuery = z.infer<typeof iotDeviceExistsQuerySchema>;

export const iotDeviceExistsSchema = z.object({
  exists: z.boolean(),
  id: uuidSchema.optional(),
});
export type IotDeviceExists = z.infer<typeof iotDeviceExistsSchema>;

// ---------------------------------------------------------------------------------------------------
// Lists and endpoints

export const iotDeviceListSpec = defineListSpec({
  resource: 'iot-devices',
  filters: {
    id: k.uuid,
    hardwareIdentifier: k.text,
    deviceIdentifier: k.text,
    model: k.text,
    connectionType: k.enum(connectionTypes),
    supportedDataTypes: k.enumList(iotDataTypes),
    trustLevel: k.enum(trustLevels),
    allowMultipleDeviceRelationships: k.boolean,
    'assignedUser.id': k.ref('users'),
    'createdByDevice.id': k.ref('devices'),
    'devices.id': k.ref('devices'),
  },
  search: ['id', 'hardwareIdentifier', 'deviceIdentifier', 'model'],
  sort: ['createdAt', 'updatedAt', 'hardwareIdentifier', 'model', 'connectionType', 'trustLevel'],
  relations: ['devices', 'assignedUser', 'createdByDevice'],
  defaultSort: { path: 'createdAt', direction: 'desc' },
});

/** Readings (spec §7: id, a time range, iotDevice.id, dataType, createdByUser.id). */
export const iotDataListSpec = defineListSpec({
  resource: 'iot-device-data',
  filters: {
    id: k.uuid,
    'iotDevice.id': k.ref('iot-devices'),
    dataType: k.enum(iotDataTypes),
    'createdByUser.id': k.ref('users'),
  },
  search: ['id'],
  sort: ['timestamp', 'createdAt', 'dataType'],
  relations: ['iotDevice', 'createdByUser'],
  defaultSort: { path: 'timestamp', direction: 'desc' },
  timeRange: 'timestamp',
});

/** The endpoints of this feature. */
export const iotEndpoints = {
  devices: '/api/iot-devices',
  data: '/api/iot-devices/data',
  submitData: '/api/iot-devices/data/submit',
  exists: '/api/iot-devices/exists',
  /** Counts of readings accepted and refused by this server process since it started (admin). */
  ingestion: '/api/iot-devices/ingestion',
  lastDataSubmission: (id: string) => `/api/iot-devices/${encodeURIComponent(id)}/last-data-submission`,
  /** One type of a device's readings over a period, summed up per equal part of it (for charts of any span). */
  readingsSummary: (id: string) => `/api/iot-devices/${encodeURIComponent(id)}/readings-summary`,
} as const;
export const iotDeviceEndpoints = resourceEndpoints(iotEndpoints.devices);
export const iotDataEndpoints = resourceEndpoints(iotEndpoints.data);
