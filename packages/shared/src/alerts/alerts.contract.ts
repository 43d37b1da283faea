// Alerts: opened by an `alert` reading, an out-of-bounds reading or by hand; closed with a note.
import { z } from 'zod';
import { alertSeverities } from '../common/enums.ts';
import { keptForSecondsSchema } from '../common/kept-actions.ts';
import { defineListSpec, filterKinds as k, resourceEndpoints } from '../common/list-spec.ts';
import {
  ALERT_FIELDS_TOO_LARGE,
  embedded,
  happenedAt,
  isoDateTime,
  jsonObject,
  MAX_TEXT,
  recordSchema,
  typedThroughout,
  UNTYPED_MESSAGE,
  uuidSchema,
  withinAlertFieldsBound,
} from '../common/primitives.ts';

/** Why an alert was opened by readings (in `data.reason`); manual alerts carry what their author wrote. */
export const alertReasons = ['alert_reading', 'out_of_bounds'] as const;
export type AlertReason = (typeof alertReasons)[number];

// How urgent an alert is: with the other enumerations (common/enums.ts), whose words are read without loading
// this contract.
export { alertSeverities, type AlertSeverity } from '../common/enums.ts';

/** What a closing may hold beside its note: the 4 KB an alert reading holds (decision 111). */
export const CLOSING_FIELDS_TOO_LARGE = `${ALERT_FIELDS_TOO_LARGE} besides the note`;

/**
 * What was done, as the console's closing note sends it (`closingData.note`): as long as a description, no
 * longer; and closing data holds typed text only (a direction override would show the care team a note other than
 * the one stored). Every alert list and the live stream carry it, so the rest of it is bounded as an alert
 * reading is: the note is bounded in characters, and its longest Thai text alone weighs 6 KB.
 */
const noteWithinLimit = (value: { closingData?: unknown }, context: z.RefinementCtx) => {
  if (!typedThroughout(value.closingData)) {
    context.addIssue({ code: 'custom', path: ['closingData'], message: UNTYPED_MESSAGE });
  }
  const { note, ...besidesNote } = (value.closingData ?? {}) as Record<string, unknown>;
  if (typeof note === 'string' && note.length > MAX_TEXT) {
    context.addIssue({
      code: 'too_big',
      origin: 'string',
      maximum: MAX_TEXT,
      inclusive: true,
      path: ['closingData', 'note'],
    });
  }
  const rest = typeof note === 'string' ? besidesNote : value.closingData;
  if (rest !== undefined && !withinAlertFieldsBound(rest)) {
    context.addIssue({ code: 'custom', path: ['closingData'], message: CLOSING_FIELDS_TOO_LARGE });
  }
};

const closingRule = (
  value: { isActive?: boolean | undefined; closingData?: unknown; data?: unknown },
  context: z.RefinementCtx,
) => {
  // An alert's data gives its title: typed text only, as in the closing note, and as much as an alert reading.
  if (!typedThroughout(value.data)) {
    context.addIssue({ code: 'custom', path: ['data'], message: UNTYPED_MESSAGE });
  }
  if (value.data !== undefined && !withinAlertFieldsBound(value.data)) {
    context.addIssue({ code: 'custom', path: ['data'], message: ALERT_FIELDS_TOO_LARGE });
  }
  if (value.isActive === false && value.closingData === undefined) {
    context.addIssue({ code: 'custom', path: ['closingData'], message: 'Required when closing an alert' });
  }
  noteWithinLimit(value, context);
  if (value.isActive === true && value.closingData !== undefined) {
    context.addIssue({
      code: 'custom',
      path: ['closingData'],
      message: 'Only given when closing an alert',
    });
  }
};

/** A manual alert. Closing (isActive false) needs closingData; the caller becomes closedByUser. */
export const alertCreateSchema = z
  .strictObject({
    data: jsonObject,
    isActive: z.boolean().default(true),
    severity: z.enum(alertSeverities).default('warning'),
    /** When it happened, in milliseconds since the epoch (from 2000 to now); defaults to now. */
    timestamp: happenedAt().optional(),
    /** The user the alert concerns. */
    user: uuidSchema.nullable().optional(),
    iotDevice: uuidSchema.nullable().optional(),
    closingData: jsonObject.optional(),
  })
  .superRefine(closingRule);
export type AlertCreate = z.infer<typeof alertCreateSchema>;

/** isActive false closes the alert (closingData required); isActive true reopens it and clears the closing. */
export const alertUpdateSchema = z
  .strictObject({
    data: jsonObject.optional(),
    isActive: z.boolean().optional(),
    severity: z.enum(alertSeverities).optional(),
    timestamp: happenedAt().optional(),
    user: uuidSchema.nullable().optional(),
    iotDevice: uuidSchema.nullable().optional(),
    closingData: jsonObject.optional(),
  })
  .superRefine(closingRule);
export type AlertUpdate = z.infer<typeof alertUpdateSchema>;

export const alertSchema = z.object({
  ...recordSchema,
  isActive: z.boolean(),
  severity: z.enum(alertSeverities),
  timestamp: z.number(),
  data: z.looseObject({}),
  closingData: z.looseObject({}).nullable(),
  acknowledgedAt: isoDateTime.nullable(),
  acknowledgedByUserId: z.string().nullable(),
  closedAt: isoDateTime.nullable(),
  iotDeviceId: z.string().nullable(),
  userId: z.string().nullable(),
  closedByUserId: z.string().nullable(),
  createdByUserId: z.string().nullable(),
  iotDevice: embedded.nullable().optional(),
  user: embedded.nullable().optional(),
  closedByUser: embedded.nullable().optional(),
  acknowledgedByUser: embedded.nullable().optional(),
  createdByUser: embedded.nullable().optional(),
});
export type Alert = z.infer<typeof alertSchema>;

export const alertListSpec = defineListSpec({
  resource: 'alerts',
  filters: {
    id: k.uuid,
    isActive: k.boolean,
    severity: k.enum(alertSeverities),
    'iotDevice.id': k.ref('iot-devices'),
    'user.id': k.ref('users'),
    'closedByUser.id': k.ref('users'),
    'createdByUser.id': k.ref('users'),
  },
  search: ['id'],
  sort: ['timestamp', 'createdAt', 'updatedAt', 'isActive', 'severity'],
  relations: ['iotDevice', 'user', 'closedByUser', 'acknowledgedByUser', 'createdByUser'],
  defaultSort: { path: 'timestamp', direction: 'desc' },
  timeRange: 'timestamp',
});

/**
 * An action tapped on a phone without a network and sent once it is back says how long it was kept, as long as a
 * phone keeps an action (the outbox's, decision 107): the server records it as taken that long ago, never before
 * the alert itself, nor a closing before its acknowledgement (decision 105).
 */
const keptForSeconds = keptForSecondsSchema.optional();

/** Closing an alert: what was done about it. */

/** POST …/acknowledge: nothing, or how long the acknowledgement was kept on the phone. */
export const alertAcknowledgeSchema = z.strictObject({ keptForSeconds });
export type AlertAcknowledge = z.infer<typeof alertAcknowledgeSchema>;

export const alertCloseSchema = z
  .strictObject({ closingData: jsonObject, keptForSeconds })
  .superRefine(noteWithinLimit);
export type AlertClose = z.infer<typeof alertCloseSchema>;

export const alertEndpoints = {
  ...resourceEndpoints('/api/alerts'),
  /** POST, no body or `{ keptForSeconds }`: the caller has seen the alert (it stays open). */
  acknowledge: (id: string) => `/api/alerts/${encodeURIComponent(id)}/acknowledge`,
  /** POST `{ closingData, keptForSeconds? }`: the caller closes the alert. */
  close: (id: string) => `/api/alerts/${encodeURIComponent(id)}/close`,
};
