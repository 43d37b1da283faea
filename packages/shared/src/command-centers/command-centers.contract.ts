// Command centers: what the API accepts and answers.
import { z } from 'zod';
import {
  addressSearchPaths,
  defineListSpec,
  filterKinds as k,
  resourceEndpoints,
} from '../common/list-spec.ts';
import {
  commandCenterAddressSchema,
  embedded,
  embeddedList,
  idList,
  recordSchema,
  requiredText,
  uuidSchema,
} from '../common/primitives.ts';
import { listQuerySchema, relationsQuerySchema } from '../common/http.ts';
import { alertSchema } from '../alerts/alerts.contract.ts';
import { deviceJobSchema } from '../devices/devices.contract.ts';

export const commandCenterCreateSchema = z.strictObject({
  title: requiredText(),
  address: commandCenterAddressSchema,
  /** User ids; replaces the whole list. */
  assignedUsers: idList.optional(),
});
export type CommandCenterCreate = z.infer<typeof commandCenterCreateSchema>;

export const commandCenterUpdateSchema = z.strictObject({
  title: requiredText().optional(),
  address: commandCenterAddressSchema.optional(),
  assignedUsers: idList.optional(),
});
export type CommandCenterUpdate = z.infer<typeof commandCenterUpdateSchema>;

export const commandCenterSchema = z.object({
  ...recordSchema,
  title: z.string(),
  address: z.looseObject({}),
  createdByUserId: z.string().nullable(),
  assignedUsers: embeddedList.optional(),
  devices: embeddedList.optional(),
  createdByUser: embedded.nullable().optional(),
});
export type CommandCenter = z.infer<typeof commandCenterSchema>;

export const commandCenterListSpec = defineListSpec({
  resource: 'command-centers',
  filters: {
    id: k.uuid,
    'assignedUsers.id': k.ref('users'),
    'devices.id': k.ref('devices'),
    'createdByUser.id': k.ref('users'),
  },
  search: ['id', 'title', ...addressSearchPaths],
  sort: ['createdAt', 'updatedAt', 'title'],
  relations: ['assignedUsers', 'devices', 'createdByUser'],
  defaultSort: { path: 'createdAt', direction: 'desc' },
});

// ---------------------------------------------------------------------------------------------------------
// Actions on a user's care (spec §7): an alert addressed to the user with a `notify` job on each of the user's
// devices, and a `reboot` job on each device assigned to the user. Both answer what they created.

/** The message the console offers when a care team sends an alert; they may change it. */
export const USER_ALERT_SUGGESTION = 'Your care team needs you to get in touch with them.';

/** The longest message a care team sends to a user's devices with an alert. */
export const MAX_USER_ALERT_MESSAGE = 280;

/**
 * Body of sending an alert to a user: the message the user's devices show (decision 038). One line of at most
 * 280 characters, not blank; line breaks and other control characters are refused, since the message travels
 * as the text of a `notify` command.
 */
const oneLine = (value: string) => [...value].every((char) => char >= ' ' && char !== '\u007f');
export const userAlertSchema = z.strictObject({
  message: requiredText(MAX_USER_ALERT_MESSAGE).refine(oneLine, {
    message: 'Must be one line, without control characters',
  }),
});
export type UserAlert = z.infer<typeof userAlertSchema>;

export const userAlertCreatedSchema = z.object({
  alert: alertSchema,
  /** One `notify` job per device assigned to the user (none when the user has no device). */
  jobs: z.array(deviceJobSchema),
});
export type UserAlertCreated = z.infer<typeof userAlertCreatedSchema>;

export const deviceRebootRequestedSchema = z.object({
  /** One `reboot` job per device assigned to the user; a user without a device answers 409. */
  jobs: z.array(deviceJobSchema).min(1),
});
export type DeviceRebootRequested = z.infer<typeof deviceRebootRequestedSchema>;

export const userIdParamsSchema = z.object({ userId: uuidSchema });

// ---------------------------------------------------------------------------------------------------------
// Scoped reads (spec §7, decisions §4): a supervisor (a user assigned to a command center) sees the devices,
// workstations, users, stats and jobs of their own centers; records of other centers answer 404. Admins see
// every center, or one when they name it with `commandCenter`; a supervisor may name one of their own.

/**
 * The local roles of a center's care team: assigned to a center with one of these, a user uses the scoped
 * calls. Patients and caregivers assigned to a center are among its users, and see nothing of the others.
 */
export const commandCenterTeamRoles = ['supervisor', 'nurse', 'doctor'] as const;

const centerParam = { commandCenter: uuidSchema.optional() };
/** The list query of the resource listed, narrowed to a command center. */
export const commandCenterScopedListQuerySchema = listQuerySchema.extend(centerParam);
export type CommandCenterScopedListQuery = z.infer<typeof commandCenterScopedListQuerySchema>;
export const commandCenterScopedReadQuerySchema = relationsQuerySchema.extend(centerParam);
export type CommandCenterScopedReadQuery = z.infer<typeof commandCenterScopedReadQuerySchema>;

/**
 * Relations a supervisor may embed in the scoped reads: those that stay inside the center's records. Admins may
 * embed every relation of the resource.
 */
export const commandCenterScopedRelations = {
  devices: ['workstation', 'assignedUser', 'iotDevices', 'commandCenter', 'stats'],
  workstations: ['device', 'assignedPatients', 'assignedWorkstations'],
  users: ['patientProfile', 'assignedIotDevices', 'assignedToWorkstations', 'assignedDevices'],
  stats: ['device'],
  jobs: ['device'],
  /** Who acknowledged, closed or sent an alert is embedded by name only (decision 104). */
  alerts: ['iotDevice', 'user', 'acknowledgedByUser', 'closedByUser', 'createdByUser'],
  /** An IoT device linked to a center's device may be assigned to someone of another center: nothing embeds. */
  iotDevices: [],
  readings: ['iotDevice'],
} as const;

export const commandCenterEndpoints = {
  ...resourceEndpoints('/api/command-centers'),
  devices: '/api/command-centers/devices',
  workstations: '/api/command-centers/workstations',
  users: '/api/command-centers/users',
  unassignedUsers: '/api/command-centers/users/unassigned',
  user: (id: string) => `/api/command-centers/users/${encodeURIComponent(id)}`,
  deviceStats: (id: string) => `/api/command-centers/devices/${encodeURIComponent(id)}/stats`,
  /** Not in spec §7's list: the jobs and alerts of a center, for the supervisor's view (decision 027). */
  jobs: '/api/command-centers/jobs',
  job: (id: string) => `/api/command-centers/jobs/${encodeURIComponent(id)}`,
  alerts: '/api/command-centers/alerts',
  /** The care team reads its patients' IoT devices and their readings (decision 102). */
  iotDevices: '/api/command-centers/iot-devices',
  readings: '/api/command-centers/readings',
  /** One type of an IoT device's readings summed up per equal part of a period (its query: readings-summary's). */
  readingsSummary: (iotDeviceId: string) =>
    `/api/command-centers/iot-devices/${encodeURIComponent(iotDeviceId)}/readings-summary`,
  /** POST: a supervisor acknowledges an open alert of their centers (decision 079). */
  acknowledgeAlert: (id: string) => `/api/command-centers/alerts/${encodeURIComponent(id)}/acknowledge`,
  /** POST `{ closingData }`: a supervisor closes an open alert of their centers. */
  closeAlert: (id: string) => `/api/command-centers/alerts/${encodeURIComponent(id)}/close`,
  alertUser: (userId: string) => `/api/command-centers/users/${encodeURIComponent(userId)}/alert`,
  rebootUserDevices: (userId: string) =>
    `/api/command-centers/users/${encodeURIComponent(userId)}/device/reboot`,
} as const;
