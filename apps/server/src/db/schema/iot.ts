// IoT medical devices, their readings and alerts.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { actionKeyIndexes, actionKeyColumns } from './action-keys.js';
import { createdAt, id, updatedAt } from './columns.js';
import { devices } from './devices.js';
import { defineLink } from './links.js';
import { users } from './users.js';

export const iotDevices = pgTable(
  'iot_devices',
  {
    id: id(),
    hardwareIdentifier: text('hardware_identifier').notNull().unique(),
    deviceIdentifier: text('device_identifier'),
    model: text('model').notNull(),
    trustLevel: text('trust_level'),
    connectionType: text('connection_type').notNull().default('unknown'),
    connectionMeta: jsonb('connection_meta').$type<Record<string, unknown>>(),
    /** scrypt hash of the connection secret; write-only, never selected for answers. */
    connectionSecret: text('connection_secret'),
    supportedDataTypes: text('supported_data_types')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    allowMultipleDeviceRelationships: boolean('allow_multiple_device_relationships').notNull().default(false),
    assignedUserId: uuid('assigned_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdByDeviceId: uuid('created_by_device_id').references(() => devices.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('iot_devices_assigned_user_idx').on(t.assignedUserId),
    index('iot_devices_created_by_device_idx').on(t.createdByDeviceId),
    index('iot_devices_connection_type_idx').on(t.connectionType),
    index('iot_devices_supported_data_types_idx').using('gin', t.supportedDataTypes),
    index('iot_devices_created_at_idx').on(t.createdAt, t.id),
    index('iot_devices_hardware_identifier_trgm_idx').using('gin', sql`${t.hardwareIdentifier} gin_trgm_ops`),
    index('iot_devices_model_trgm_idx').using('gin', sql`${t.model} gin_trgm_ops`),
  ],
);

/** The client devices an IoT device talks through; a client device's IoT devices. */
export const iotDeviceDevices = defineLink(
  'iot_device_devices',
  { column: 'iotDeviceId', references: iotDevices, list: 'devices' },
  { column: 'deviceId', references: devices, list: 'iotDevices' },
);

export const iotDeviceData = pgTable(
  'iot_device_data',
  {
    id: id(),
    timestamp: bigint('timestamp', { mode: 'number' }).notNull(),
    dataType: text('data_type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    iotDeviceId: uuid('iot_device_id').references(() => iotDevices.id, { onDelete: 'set null' }),
    /**
     * The person the reading is about: its IoT device's assigned user when it was stored (as an alert's
     * `userId`), null for a device assigned to nobody then. Not the submitter (`createdByUserId`). The care
     * team's scope goes by it, not by whom the device is assigned to now (decision 109); not in answers.
     */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('iot_device_data_device_timestamp_idx').on(t.iotDeviceId, t.timestamp, t.id),
    index('iot_device_data_user_timestamp_idx').on(t.userId, t.timestamp, t.id),
    index('iot_device_data_type_timestamp_idx').on(t.dataType, t.timestamp, t.id),
    index('iot_device_data_timestamp_idx').on(t.timestamp, t.id),
    index('iot_device_data_created_by_idx').on(t.createdByUserId),
  ],
);

export const alerts = pgTable(
  'alerts',
  {
    id: id(),
    isActive: boolean('is_active').notNull().default(true),
    /** info, warning or critical. */
    severity: text('severity').notNull().default('warning'),
    timestamp: bigint('timestamp', { mode: 'number' }).notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    closingData: jsonb('closing_data').$type<Record<string, unknown>>(),
    iotDeviceId: uuid('iot_device_id').references(() => iotDevices.id, { onDelete: 'set null' }),
    /** The user the alert concerns (a patient, or the addressee of a manual alert). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    closedByUserId: uuid('closed_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** Someone has seen the alert; it stays open until closed. */
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedByUserId: uuid('acknowledged_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('alerts_active_timestamp_idx').on(t.isActive, t.timestamp, t.id),
    index('alerts_timestamp_idx').on(t.timestamp, t.id),
    index('alerts_iot_device_idx').on(t.iotDeviceId),
    index('alerts_user_idx').on(t.userId),
    index('alerts_created_by_idx').on(t.createdByUserId),
    index('alerts_closed_by_idx').on(t.closedByUserId),
    index('alerts_acknowledged_by_idx').on(t.acknowledgedByUserId),
  ],
);

/** An alert's acknowledge or close sent with an Idempotency-Key (decision 107): see action-keys.ts. */
export const alertActionKeys = pgTable(
  'alert_action_keys',
  {
    ...actionKeyColumns(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
  },
  (t) => actionKeyIndexes('alert_action_keys', 'alert', t, t.alertId),
);

/**
 * The server processes that take readings from the shared MQTT subscription, by their broker client id stem
 * (MQTT_CLIENT_ID): the presence each names while it runs (its change-listener connection's application name)
 * and how many broker sessions it keeps. A member whose presence is gone while its row stays stopped without
 * leaving the subscription (a crash); another member takes over its sessions and the readings the broker queued
 * for them (decision 098).
 */
export const mqttMembers = pgTable('mqtt_members', {
  clientId: text('client_id').primaryKey(),
  presence: text('presence').notNull(),
  connections: integer('connections').notNull(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});
