// Client devices, their stats, workstations and runner jobs.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { defineLink } from './links.js';
import { commandCenters } from './organisations.js';
import { users } from './users.js';

export const devices = pgTable(
  'devices',
  {
    id: id(),
    title: text('title').notNull(),
    location: jsonb('location').$type<Record<string, unknown>>(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    role: text('role').notNull().default('none'),
    localRoles: text('local_roles')
      .array()
      .notNull()
      .default(sql`'{none}'::text[]`),
    /** sha-256 of the device token; write-only, never selected for answers. */
    tokenHash: text('token_hash').unique(),
    assignedUserId: uuid('assigned_user_id').references(() => users.id, { onDelete: 'set null' }),
    commandCenterId: uuid('command_center_id').references(() => commandCenters.id, {
      onDelete: 'set null',
    }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('devices_assigned_user_idx').on(t.assignedUserId),
    index('devices_command_center_idx').on(t.commandCenterId),
    index('devices_role_idx').on(t.role, t.id),
    index('devices_local_roles_idx').using('gin', t.localRoles),
    index('devices_title_idx').on(t.title, t.id),
    index('devices_title_trgm_idx').using('gin', sql`${t.title} gin_trgm_ops`),
    index('devices_created_at_idx').on(t.createdAt, t.id),
  ],
);

export const deviceStats = pgTable(
  'device_stats',
  {
    id: id(),
    timestamp: bigint('timestamp', { mode: 'number' }).notNull(),
    bootTime: bigint('boot_time', { mode: 'number' }),
    firmware: text('firmware').notNull(),
    network: jsonb('network').$type<Record<string, unknown>[]>().notNull(),
    system: jsonb('system').$type<Record<string, unknown>>().notNull(),
    hardware: jsonb('hardware').$type<Record<string, unknown>>().notNull(),
    software: jsonb('software').$type<Record<string, unknown>>(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('device_stats_device_timestamp_idx').on(t.deviceId, t.timestamp, t.id),
    index('device_stats_timestamp_idx').on(t.timestamp, t.id),
  ],
);

export const workstations = pgTable(
  'workstations',
  {
    id: id(),
    title: text('title'),
    deviceId: uuid('device_id')
      .unique()
      .references(() => devices.id, { onDelete: 'set null' }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('workstations_created_by_idx').on(t.createdByUserId),
    index('workstations_created_at_idx').on(t.createdAt, t.id),
  ],
);

/** A workstation's assigned patients; the workstations a user is assigned to. */
export const workstationPatients = defineLink(
  'workstation_patients',
  { column: 'workstationId', references: workstations, list: 'assignedPatients' },
  { column: 'userId', references: users, list: 'assignedToWorkstations' },
);

/** The client devices a workstation groups (the spec calls them its assignedWorkstations). */
export const workstationDevices = defineLink(
  'workstation_devices',
  { column: 'workstationId', references: workstations, list: 'assignedWorkstations' },
  { column: 'deviceId', references: devices },
);

export const deviceRunnerJobs = pgTable(
  'device_runner_jobs',
  {
    id: id(),
    purpose: text('purpose').notNull().default('No purpose provided.'),
    commands: jsonb('commands').$type<string[]>().notNull().default([]),
    results: jsonb('results').$type<Record<string, unknown>[]>().notNull().default([]),
    status: text('status').notNull().default('NEW'),
    notBefore: timestamp('not_before', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** A NEW job: until when it is handed to the fetch that got it. ACCEPTED/RUNNING: when it times out. */
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true, mode: 'date' }),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('device_runner_jobs_device_status_idx').on(t.deviceId, t.status),
    index('device_runner_jobs_due_idx')
      .on(t.deviceId, t.notBefore, t.createdAt)
      .where(sql`status = 'NEW'`),
    index('device_runner_jobs_status_idx').on(t.status),
    index('device_runner_jobs_created_by_idx').on(t.createdByUserId),
    index('device_runner_jobs_created_at_idx').on(t.createdAt, t.id),
  ],
);
