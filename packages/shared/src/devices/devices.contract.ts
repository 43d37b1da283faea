// Client devices, device stats, workstations and device runner jobs: what the API accepts and answers.
import { z } from 'zod';
import { defineListSpec, filterKinds as k, resourceEndpoints } from '../common/list-spec.ts';
import {
  DEFAULT_STATS_LIMIT,
  deviceRoles,
  processStatuses,
  trustLevels,
  type ProcessStatus,
} from '../common/enums.ts';
import { MAX_PAGE_SIZE, listQuerySchema, queryInteger } from '../common/http.ts';
import { periodQuerySchema, periodSummaryShape } from '../common/period-summary.ts';
import {
  dateTimeInput,
  embedded,
  embeddedList,
  epochMillis,
  idList,
  isoDateTime,
  locationSchema,
  recordSchema,
  requiredText,
  text,
  uuidSchema,
} from '../common/primitives.ts';

// ---------------------------------------------------------------------------------------------------------
// Client devices

const deviceFields = {
  location: locationSchema.nullable().optional(),
  isEnabled: z.boolean().optional(),
  role: z.enum(deviceRoles).optional(),
  /** Promotion replaces this list with a single role. */
  localRoles: z.array(z.enum(deviceRoles)).min(1).max(deviceRoles.length).optional(),
  assignedUser: uuidSchema.nullable().optional(),
  commandCenter: uuidSchema.nullable().optional(),
  iotDevices: idList.optional(),
};

export const deviceCreateSchema = z.strictObject({ title: requiredText(120), ...deviceFields });
export type DeviceCreate = z.infer<typeof deviceCreateSchema>;

export const deviceUpdateSchema = z.strictObject({ title: requiredText(120).optional(), ...deviceFields });
export type DeviceUpdate = z.infer<typeof deviceUpdateSchema>;

/** A client device as answered; its token is write-only and never part of it. */
export const deviceSchema = z.object({
  ...recordSchema,
  title: z.string(),
  location: z.looseObject({}).nullable(),
  isEnabled: z.boolean(),
  role: z.string(),
  localRoles: z.array(z.string()),
  assignedUserId: z.string().nullable(),
  commandCenterId: z.string().nullable(),
  createdByUserId: z.string().nullable(),
  workstation: embedded.nullable().optional(),
  assignedUser: embedded.nullable().optional(),
  iotDevices: embeddedList.optional(),
  commandCenter: embedded.nullable().optional(),
  stats: embeddedList.optional(),
  createdByUser: embedded.nullable().optional(),
});
export type Device = z.infer<typeof deviceSchema>;

/** Device tokens: `cpd_` and 43 base64url characters (32 random bytes). */
export const DEVICE_TOKEN_PREFIX = 'cpd_';
export const deviceTokenSchema = z.string().regex(/^cpd_[A-Za-z0-9_-]{43}$/, {
  message: 'Must be a device token',
});

/** The create answer: the only time the device token is shown (the re-key answer shows a new one). */
export const deviceCreatedSchema = deviceSchema.extend({ token: deviceTokenSchema });
export type DeviceCreated = z.infer<typeof deviceCreatedSchema>;

/** Answer of POST /api/devices/{id}/token. */
export const deviceTokenIssuedSchema = z.object({ id: uuidSchema, token: deviceTokenSchema });
export type DeviceTokenIssued = z.infer<typeof deviceTokenIssuedSchema>;

// ---------------------------------------------------------------------------------------------------------
// Device stats (spec §3 "Device stat", §5 "Device status")

/** A share in percent. */
const percent = z.number().min(0).max(100);
/** An amount in bytes. */
const bytes = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const address = text(64).nullable();

export const interfaceAddressSchema = z.strictObject({
  ip: address,
  extIp: address,
  gateway: address,
  /** One server, or several separated by commas. */
  dns: text(255).nullable(),
});
export type InterfaceAddress = z.infer<typeof interfaceAddressSchema>;

export const networkInterfaceSchema = z.strictObject({
  name: requiredText(64),
  mac: text(64),
  /** For example wired, wireless, virtual. */
  type: text(32),
  active: z.boolean(),
  ip4: interfaceAddressSchema.nullable(),
  ip6: interfaceAddressSchema.nullable(),
});
export type NetworkInterface = z.infer<typeof networkInterfaceSchema>;

/** `usage` in percent, `used` in bytes (for cpu: `used` is the busy time in milliseconds). */
export const usageSchema = z.strictObject({ usage: percent, used: bytes });
export type Usage = z.infer<typeof usageSchema>;

export const deviceSystemSchema = z.strictObject({
  osVersion: requiredText(255),
  /** Shares of CPU time in percent. */
  loadAverage: z.strictObject({ user: percent, wait: percent, system: percent }),
  hdd: usageSchema,
  cpu: usageSchema,
  memory: usageSchema,
  swap: usageSchema,
});
export type DeviceSystem = z.infer<typeof deviceSystemSchema>;

export const cpuSchema = z.strictObject({
  model: requiredText(255),
  cores: z.number().int().min(1).max(4096).optional(),
  /** Clock speed in MHz. */
  speed: z.number().min(0).max(100_000).optional(),
});
export type Cpu = z.infer<typeof cpuSchema>;

export const diskSchema = z.strictObject({
  name: requiredText(128),
  size: bytes,
  /** For example ssd, hdd, nvme. */
  type: text(32).optional(),
  model: text(255).optional(),
});
export type Disk = z.infer<typeof diskSchema>;

export const deviceHardwareSchema = z.strictObject({
  cpu: z.array(cpuSchema).max(256),
  memory: z.strictObject({ total: bytes }),
  disks: z.array(diskSchema).max(64),
});
export type DeviceHardware = z.infer<typeof deviceHardwareSchema>;

export const softwarePackageSchema = z.strictObject({
  name: requiredText(255),
  version: text(128),
});
export const deviceSoftwareSchema = z.strictObject({
  system: z.array(softwarePackageSchema).max(2000),
});
export type DeviceSoftware = z.infer<typeof deviceSoftwareSchema>;

const statFields = {
  firmware: requiredText(255),
  network: z.array(networkInterfaceSchema).max(64),
  system: deviceSystemSchema,
  hardware: deviceHardwareSchema,
  software: deviceSoftwareSchema.nullable().optional(),
};

/** What a device posts about itself: the server sets `timestamp` and knows the device from its token. */
export const deviceStatSubmissionSchema = z.strictObject({
  bootTime: epochMillis.optional(),
  ...statFields,
});
export type DeviceStatSubmission = z.infer<typeof deviceStatSubmissionSchema>;

/** The admin's generic create: a full record with its time, boot time and device. */
export const deviceStatCreateSchema = z.strictObject({
  timestamp: epochMillis,
  bootTime: epochMillis,
  device: uuidSchema,
  ...statFields,
});
export type DeviceStatCreate = z.infer<typeof deviceStatCreateSchema>;

/** Corrections of the measured fields; a stat stays with its device. */
export const deviceStatUpdateSchema = z.strictObject({
  timestamp: epochMillis.optional(),
  bootTime: epochMillis.nullable().optional(),
  firmware: statFields.firmware.optional(),
  network: statFields.network.optional(),
  system: statFields.system.optional(),
  hardware: statFields.hardware.optional(),
  software: statFields.software,
});
export type DeviceStatUpdate = z.infer<typeof deviceStatUpdateSchema>;

export const deviceStatSchema = z.object({
  id: uuidSchema,
  timestamp: z.number(),
  bootTime: z.number().nullable(),
  firmware: z.string(),
  network: z.array(z.looseObject({})),
  system: z.looseObject({}),
  hardware: z.looseObject({}),
  software: z.looseObject({}).nullable(),
  deviceId: z.string(),
  createdAt: isoDateTime,
  device: embedded.nullable().optional(),
});
export type DeviceStat = z.infer<typeof deviceStatSchema>;

/** `GET /api/devices/{id}/last-stats-submission`: the newest stat, or null when the device has sent none. */
export const lastStatsSubmissionSchema = deviceStatSchema.nullable();

/**
 * The numbers a device's charts draw, by the name the stats summary answers them under, and where each is in a
 * stat's `system` (as the agent reports it: percentages).
 */
export const DEVICE_STAT_SERIES = {
  cpu: ['cpu', 'usage'],
  memory: ['memory', 'usage'],
  disk: ['hdd', 'usage'],
  user: ['loadAverage', 'user'],
  system: ['loadAverage', 'system'],
  wait: ['loadAverage', 'wait'],
} as const satisfies Record<string, readonly [string, string]>;
export type DeviceStatSeries = keyof typeof DEVICE_STAT_SERIES;

/** `GET /api/devices/{id}/stats-summary?from=..&to=..&buckets=120`: a device's stats between two moments. */
export const deviceStatsSummaryQuerySchema = periodQuerySchema({});
export type DeviceStatsSummaryQuery = z.infer<typeof deviceStatsSummaryQuerySchema>;

/** Every stat of the period, summed up per part: the lowest, mean and highest of each `DEVICE_STAT_SERIES`. */
export const deviceStatsSummarySchema = z.object(periodSummaryShape);
export type DeviceStatsSummary = z.infer<typeof deviceStatsSummarySchema>;

export const MAX_STATS_TIMESTAMPS = 200;

/**
 * `GET /api/devices/stats`: the list query with `limit` defaulting to 5, plus `timestamps`: a comma-separated
 * list of millisecond timestamps; only the stats taken at exactly those times are listed (device status events
 * name the stats they refer to this way).
 */
export const deviceStatsQuerySchema = listQuerySchema.safeExtend({
  limit: queryInteger(z.number().int().min(1).max(MAX_PAGE_SIZE)).default(DEFAULT_STATS_LIMIT),
  timestamps: z
    .string()
    .max(MAX_STATS_TIMESTAMPS * 17)
    .regex(/^\d{1,16}(,\d{1,16})*$/, { message: 'Must be comma-separated millisecond timestamps' })
    .refine((value) => value.split(',').length <= MAX_STATS_TIMESTAMPS, {
      message: `At most ${MAX_STATS_TIMESTAMPS} timestamps`,
    })
    .optional(),
});
export type DeviceStatsQuery = z.infer<typeof deviceStatsQuerySchema>;

// ---------------------------------------------------------------------------------------------------------
// Workstations (spec §3 "Workstation", §5 "Workstation update")

/** On create the two lists are named (they may be empty); on update each is optional. */
export const workstationCreateSchema = z.strictObject({
  title: text(120).nullable().optional(),
  device: uuidSchema.nullable().optional(),
  assignedPatients: idList,
  assignedWorkstations: idList,
});
export type WorkstationCreate = z.infer<typeof workstationCreateSchema>;

export const workstationUpdateSchema = z.strictObject({
  title: text(120).nullable().optional(),
  device: uuidSchema.nullable().optional(),
  assignedPatients: idList.optional(),
  assignedWorkstations: idList.optional(),
});
export type WorkstationUpdate = z.infer<typeof workstationUpdateSchema>;

export const workstationSchema = z.object({
  ...recordSchema,
  title: z.string().nullable(),
  deviceId: z.string().nullable(),
  createdByUserId: z.string().nullable(),
  device: embedded.nullable().optional(),
  assignedPatients: embeddedList.optional(),
  assignedWorkstations: embeddedList.optional(),
  createdByUser: embedded.nullable().optional(),
});
export type Workstation = z.infer<typeof workstationSchema>;

/** Body of POST /api/devices/workstations/{id}/assigned-patient/add and /remove: the patient's user id. */
export const workstationPatientSchema = z.strictObject({ id: uuidSchema });
export type WorkstationPatient = z.infer<typeof workstationPatientSchema>;

// ---------------------------------------------------------------------------------------------------------
// Device runner jobs (spec §3, §5 "Runner job"; decisions §7)

export const MAX_JOB_COMMANDS = 50;
export const MAX_JOB_COMMAND_LENGTH = 1000;
export const MAX_JOB_PURPOSE_LENGTH = 500;
/** Agents cut stdout and stderr to this many characters before reporting. */
export const MAX_JOB_OUTPUT = 8192;

/** The statuses a device reports for its own job through `POST /api/devices/me/jobs/{id}/status`. */
export const deviceReportedJobStatuses = ['RUNNING', 'SUCCEEDED', 'FAILED'] as const;

export const jobCommandSchema = requiredText(MAX_JOB_COMMAND_LENGTH);

/** A host name or address as the agent pings it: letters, digits, dots, colons and hyphens (never an option). */
export const PING_HOST = /^[A-Za-z0-9][A-Za-z0-9.:-]{0,252}$/;
export const PING_NEEDS_HOST = 'ping needs a host name or address after it, such as ping 10.0.0.1';
export const NOTIFY_NEEDS_TEXT = 'notify needs the text to show after it, such as notify Take your tablets';

/**
 * A command as a job is submitted with it: the agent's own commands that take something (ping a host, notify
 * a text) must be given it, or the agent would only refuse them on the device. Other text is a shell command
 * (decisions §7). Results keep the plain schema: a device reports what it was sent.
 */
export const submittedJobCommandSchema = jobCommandSchema.superRefine((command, context) => {
  const [verb = '', ...rest] = command.split(/\s+/);
  const argument = rest.join(' ');
  if (verb === 'ping' && !PING_HOST.test(argument))
    context.addIssue({ code: 'custom', message: PING_NEEDS_HOST });
  if (verb === 'notify' && !argument) context.addIssue({ code: 'custom', message: NOTIFY_NEEDS_TEXT });
});

/**
 * Body of POST /api/devices/jobs. `purpose` must be sent; a blank one is stored as 'No purpose provided.'.
 * `notBefore` defaults to now; the creating user is the caller.
 */
export const deviceJobSubmissionSchema = z.strictObject({
  purpose: text(MAX_JOB_PURPOSE_LENGTH),
  commands: z.array(submittedJobCommandSchema).min(1).max(MAX_JOB_COMMANDS),
  device: uuidSchema,
  notBefore: dateTimeInput.optional(),
});
export type DeviceJobSubmission = z.infer<typeof deviceJobSubmissionSchema>;

export const jobResultSchema = z
  .strictObject({
    command: jobCommandSchema,
    /** Null when the command was stopped by a signal or never started. */
    exitCode: z.number().int().min(-2_147_483_648).max(2_147_483_647).nullable(),
    stdout: text(MAX_JOB_OUTPUT),
    stderr: text(MAX_JOB_OUTPUT),
    startedAt: dateTimeInput,
    finishedAt: dateTimeInput,
  })
  .superRefine((result, context) => {
    // A command that ended before it started is a wrong clock or a typo, not a result to keep.
    if (Date.parse(result.finishedAt) < Date.parse(result.startedAt)) {
      context.addIssue({ code: 'custom', path: ['finishedAt'], message: 'Must not be before startedAt' });
    }
  });
export type JobResult = z.infer<typeof jobResultSchema>;

export const deviceJobUpdateSchema = z.strictObject({
  status: z.enum(processStatuses),
  results: z.array(jobResultSchema).max(MAX_JOB_COMMANDS).optional(),
});
export type DeviceJobUpdate = z.infer<typeof deviceJobUpdateSchema>;

/** Body of POST /api/devices/me/jobs/{id}/status: the device's progress or outcome, with its results. */
export const deviceJobReportSchema = z.strictObject({
  status: z.enum(deviceReportedJobStatuses),
  results: z.array(jobResultSchema).max(MAX_JOB_COMMANDS).optional(),
});
export type DeviceJobReport = z.infer<typeof deviceJobReportSchema>;

/** How long a device's long poll for its next job may wait, in seconds (`wait`, 0 answers at once). */
export const MAX_JOB_WAIT_SECONDS = 60;
export const DEFAULT_JOB_WAIT_SECONDS = 25;
export const nextJobQuerySchema = z.strictObject({
  wait: queryInteger(z.number().int().min(0).max(MAX_JOB_WAIT_SECONDS)).default(DEFAULT_JOB_WAIT_SECONDS),
});
export type NextJobQuery = z.infer<typeof nextJobQuerySchema>;

/**
 * Leases (decision 025): a fetched job is the fetching device's for JOB_HANDOUT_SECONDS, until it
 * acknowledges it; an accepted or running job stays alive JOB_LEASE_SECONDS after the device's last word.
 */
export const JOB_HANDOUT_SECONDS = 60;
export const JOB_LEASE_SECONDS = 15 * 60;

/** The commands an agent knows (decisions §7); anything else is a shell command, run only where allowed. */
export const jobVocabulary = ['reboot', 'restart-agent', 'collect-logs', 'ping', 'notify'] as const;
export type JobVerb = (typeof jobVocabulary)[number];

export const deviceJobSchema = z.object({
  ...recordSchema,
  purpose: z.string(),
  commands: z.array(z.string()),
  results: z.array(z.looseObject({})),
  status: z.enum(processStatuses),
  notBefore: isoDateTime,
  /** Until when the current hand-out or lease holds; null when none. */
  leaseExpiresAt: isoDateTime.nullable().optional(),
  deviceId: z.string(),
  createdByUserId: z.string().nullable(),
  device: embedded.nullable().optional(),
  createdByUser: embedded.nullable().optional(),
});
export type DeviceJob = z.infer<typeof deviceJobSchema>;

/**
 * Runner job transitions (decisions §7, decision 025): NEW → ACCEPTED (the device acknowledges) → RUNNING →
 * SUCCEEDED | FAILED, and NEW or ACCEPTED → CANCELLED (an admin). A running job may report RUNNING again to
 * send partial results. An accepted or running job whose device stays silent past its lease becomes
 * TIMED_OUT (the server).
 */
export const jobTransitions: Readonly<Record<ProcessStatus, readonly ProcessStatus[]>> = {
  NEW: ['ACCEPTED', 'CANCELLED'],
  ACCEPTED: ['RUNNING', 'CANCELLED', 'TIMED_OUT'],
  RUNNING: ['RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT'],
  SUCCEEDED: [],
  FAILED: [],
  CANCELLED: [],
  TIMED_OUT: [],
};

export const canTransitionJob = (from: ProcessStatus, to: ProcessStatus) => jobTransitions[from].includes(to);

/** The statuses an admin may set through `PATCH /api/devices/jobs/{id}`: only a cancellation. */
export const adminJobStatuses: readonly ProcessStatus[] = ['CANCELLED'];

export const isFinishedJobStatus = (status: ProcessStatus) => jobTransitions[status].length === 0;

// ---------------------------------------------------------------------------------------------------------
// Lists and endpoints

export const deviceListSpec = defineListSpec({
  resource: 'devices',
  filters: {
    id: k.uuid,
    title: k.text,
    isEnabled: k.boolean,
    role: k.enum(deviceRoles),
    localRoles: k.enumList(deviceRoles),
    'assignedUser.id': k.ref('users'),
    'commandCenter.id': k.ref('command-centers'),
    'createdByUser.id': k.ref('users'),
    'workstation.id': k.ref('workstations'),
    'iotDevices.id': k.ref('iot-devices'),
  },
  search: ['id', 'title', 'location.title', 'assignedUser.id', 'commandCenter.id'],
  sort: ['createdAt', 'updatedAt', 'title', 'role', 'isEnabled'],
  relations: ['workstation', 'assignedUser', 'iotDevices', 'commandCenter', 'stats', 'createdByUser'],
  defaultSort: { path: 'createdAt', direction: 'desc' },
});

export const deviceStatListSpec = defineListSpec({
  resource: 'device-stats',
  filters: { id: k.uuid, 'device.id': k.ref('devices'), timestamp: k.number, firmware: k.text },
  search: ['id', 'device.id', 'firmware'],
  sort: ['timestamp', 'bootTime', 'createdAt'],
  relations: ['device'],
  defaultSort: { path: 'timestamp', direction: 'desc' },
  timeRange: 'timestamp',
});

export const workstationListSpec = defineListSpec({
  resource: 'workstations',
  filters: {
    id: k.uuid,
    title: k.text,
    'device.id': k.ref('devices'),
    'assignedPatients.id': k.ref('users'),
    'assignedWorkstations.id': k.ref('devices'),
    'createdByUser.id': k.ref('users'),
  },
  search: ['id', 'title', 'device.id'],
  sort: ['createdAt', 'updatedAt', 'title'],
  relations: ['device', 'assignedPatients', 'assignedWorkstations', 'createdByUser'],
  defaultSort: { path: 'createdAt', direction: 'desc' },
});

export const deviceJobListSpec = defineListSpec({
  resource: 'device-jobs',
  filters: {
    id: k.uuid,
    status: k.enum(processStatuses),
    purpose: k.text,
    'device.id': k.ref('devices'),
    'createdByUser.id': k.ref('users'),
  },
  search: ['id', 'purpose', 'commands', 'device.id'],
  sort: ['createdAt', 'updatedAt', 'notBefore', 'status', 'purpose'],
  relations: ['device', 'createdByUser'],
  defaultSort: { path: 'createdAt', direction: 'desc' },
});

/**
 * An IoT device linked to the calling device, as that device sees it: enough to relay its readings
 * (`POST /api/iot-devices/data/submit` with the device token), never its connection secret.
 */
export const linkedIotDeviceSchema = z.object({
  id: z.string(),
  hardwareIdentifier: z.string(),
  model: z.string(),
  trustLevel: z.enum(trustLevels).nullable(),
  supportedDataTypes: z.array(z.string()),
});
export type LinkedIotDevice = z.infer<typeof linkedIotDeviceSchema>;

export const deviceEndpoints = {
  ...resourceEndpoints('/api/devices'),
  /** The calling device itself (device token). */
  me: '/api/devices/me',
  /** The open alerts of the calling device's user and IoT devices (device token). */
  alerts: '/api/devices/alerts',
  /** The IoT devices linked to the calling device, whose readings it may relay (device token). */
  myIotDevices: '/api/devices/me/iot-devices',
  /** The calling device's next due job, by long poll (device token). */
  nextJob: '/api/devices/me/jobs/next',
  ackJob: (id: string) => `/api/devices/me/jobs/${encodeURIComponent(id)}/ack`,
  reportJob: (id: string) => `/api/devices/me/jobs/${encodeURIComponent(id)}/status`,
  token: (id: string) => `/api/devices/${encodeURIComponent(id)}/token`,
  lastStatsSubmission: (id: string) => `/api/devices/${encodeURIComponent(id)}/last-stats-submission`,
  statsSummary: (id: string) => `/api/devices/${encodeURIComponent(id)}/stats-summary`,
} as const;
export const deviceStatEndpoints = resourceEndpoints('/api/devices/stats');
export const workstationEndpoints = {
  ...resourceEndpoints('/api/devices/workstations'),
  addPatient: (id: string) => `/api/devices/workstations/${encodeURIComponent(id)}/assigned-patient/add`,
  removePatient: (id: string) =>
    `/api/devices/workstations/${encodeURIComponent(id)}/assigned-patient/remove`,
} as const;
export const deviceJobEndpoints = resourceEndpoints('/api/devices/jobs');
