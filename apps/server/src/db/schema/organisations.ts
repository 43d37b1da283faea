// Service providers (pharmacy, courier, nurse), their employees, and command centers.
import { boolean, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { defineLink } from './links.js';
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

/** A user's employers; a service provider's employees. */
export const userEmployers = defineLink(
  'user_employers',
  { column: 'userId', references: users, list: 'employers' },
  { column: 'serviceProviderId', references: serviceProviders, list: 'employees' },
  { reverseIndex: 'user_employers_provider_idx' },
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

/** A command center's assigned users; a user's command centers. */
export const commandCenterUsers = defineLink(
  'command_center_users',
  { column: 'commandCenterId', references: commandCenters, list: 'assignedUsers' },
  { column: 'userId', references: users, list: 'commandCenters' },
);
