// IoT devices and their readings: what the API accepts and answers, and how readings are validated.
import { z } from 'zod';
import { defineListSpec, filterKinds as k, resourceEndpoints } from '../common/list-spec.ts';
import { connectionTypes, iotDataTypes, trustLevels, type IotDataType } from '../common/enums.ts';
import {
  MAX_SHORT_TEXT,
  embedded,
  embeddedList,
  epochMillis,
  idList,
  isoDateTime,
  jsonObject,
  recordSchema,
  requiredText,
  text,
  uuidSchema,
} from '../common/primitives.ts';

/** The trust level whose submissions must be authenticated with the connection secret. */
export const TRUSTED_LEVEL = 'trusted' satisfies (typeof trustLevels)[number];

/** A heart rate outside these bounds (beats per minute, inclusive inside) opens an alert. */
export const HEART_RATE_BOUNDS = { min: 40, max: 130 } as const;

/** Readings one submission may carry: one multi-row insert stays far below the driver's parameter limit. */
export const MAX_READINGS_PER_SUBMISSION = 5000;

export const MIN_CONNECTION_SECRET_LENGTH = 8;
export const MAX_CONNECTION_SECRET_LENGTH = 512;

// ---------------------------------------------------------------------------------------------------
// Readings

const reading = {
  timestamp: epochMillis,
  /** A reading that carries an id has a string id (spec §3). */
  id: requiredText().optional(),
};
const measure = (max: number) => z.number().min(0).max(max);
const unit = requiredText(16);

export const batteryReadingSchema = z.strictObject({ ...reading, level: measure(100) });
export const heartRateReadingSchema = z.strictObject({ ...reading, rate: measure(1000) });
export const temperatureReadingSchema = z.strictObject({
  ...reading,
  value: z.number().min(-300).max(10_000),
  unit,
});
export const pressureReadingSchema = z.strictObject({ ...reading, value: measure(1_000_000), unit });
export const bloodPressureReadingSchema = z.strictObject({
  ...reading,
  sys: measure(400),
  dias: measure(400),
});
/** An alert raised by the device itself: `{ id, timestamp, ... }`; further fields describe it. */
export const alertReadingSchema = z
  .looseObject({ timestamp: epochMillis, id: requiredText() })
  .refine((value) => Object.keys(value).length <= 50, { message: 'At most 50 fields' });

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
    issues.push({ path: 'connectionSecret', message: 'Required when trustLevel is trusted' });
  }
  if (hasSecret && !trustLevel) {
    issues.push({ path: 'trustLevel', message: 'Required when a connectionSecret is given' });
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
  lastDataSubmission: (id: string) => `/api/iot-devices/${encodeURIComponent(id)}/last-data-submission`,
} as const;
export const iotDeviceEndpoints = resourceEndpoints(iotEndpoints.devices);
export const iotDataEndpoints = resourceEndpoints(iotEndpoints.data);
