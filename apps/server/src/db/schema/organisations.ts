// Service providers (pharmacy, courier, nurse), their employees, and command centers.
import { boolean, index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { users } from './users.js';

export const serviceProviders = pgTable(
  'service_providers',
  {
    id: id(),
    title: text('title').notNull(),
    type: text('type').notNull(),
    address: jsonb('address').$type<Record<string, unknown>>().notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('service_providers_type_idx').on(t.type, t.id),
    index('service_providers_title_idx').on(t.title, t.id),
    index('service_providers_created_by_idx').on(t.createdByUserId),
    index('service_providers_created_at_idx').on(t.createdAt, t.id),
  ],
);

/** users.employers / serviceProviders.employees */
export const userEmployers = pgTable(
  'user_employers',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    serviceProviderId: uuid('service_provider_id')
      .notNull()
      .references(() => serviceProviders.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.serviceProviderId] }),
    index('user_employers_provider_idx').on(t.serviceProviderId),
  ],
);

export const commandCenters = pgTable(
  'command_centers',
  {
    id: id(),
    title: text('title').notNull(),
    address: jsonb('address').$type<Record<string, unknown>>().notNull(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('command_centers_title_idx').on(t.title, t.id),
    index('command_centers_created_at_idx').on(t.createdAt, t.id),
    index('command_centers_created_by_idx').on(t.createdByUserId),
  ],
);

/** commandCenters.assignedUsers / users.commandCenters */
export const commandCenterUsers = pgTable(
  'command_center_users',
  {
    commandCenterId: uuid('command_center_id')
      .notNull()
      .references(() => commandCenters.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.commandCenterId, t.userId] }),
    index('command_center_users_user_idx').on(t.userId),
  ],
);
