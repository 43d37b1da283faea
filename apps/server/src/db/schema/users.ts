import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { defineLink } from './links.js';

export const patientProfiles = pgTable(
  'patient_profiles',
  {
    id: id(),
    status: text('status').notNull().default('enrollment'),
    location: jsonb('location').$type<Record<string, unknown>>(),
    emergencyContacts: jsonb('emergency_contacts').$type<Record<string, unknown>[]>().notNull().default([]),
    createdByUserId: uuid('created_by_user_id').references((): AnyPgColumn => users.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Sortable columns carry the id too: a list sorted by them ends with the id (see lib/resources/filters.ts).
    // A name sorts by both names (last, then first, or the other way round) before the id.
    index('patient_profiles_status_idx').on(t.status, t.id),
    index('patient_profiles_created_by_idx').on(t.createdByUserId),
    index('patient_profiles_created_at_idx').on(t.createdAt, t.id),
    index('patient_profiles_updated_at_idx').on(t.updatedAt, t.id),
  ],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    username: text('username').notNull().unique(),
    usernameWithoutDomain: text('username_without_domain').notNull(),
    primaryDomain: text('primary_domain').notNull(),
    masterId: text('master_id').unique(),
    email: text('email'),
    phoneNumber: text('phone_number'),
    title: text('title'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    identityAssuranceLevel: text('identity_assurance_level'),
    isVerified: boolean('is_verified').notNull().default(false),
    isBlocked: boolean('is_blocked').notNull().default(false),
    registrationCompleted: boolean('registration_completed').notNull().default(false),
    registrationStatus: text('registration_status').notNull().default('registered'),
    address: jsonb('address').$type<Record<string, unknown>[]>().notNull().default([]),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    localRoles: text('local_roles')
      .array()
      .notNull()
      .default(sql`'{none}'::text[]`),
    matrixIdentity: jsonb('matrix_identity').$type<Record<string, unknown>>(),
    additionalInfo: jsonb('additional_info').$type<Record<string, unknown>>().notNull().default({}),
    /** The console's language chosen by the user (en, th); null follows the browser. */
    language: text('language'),
    patientProfileId: uuid('patient_profile_id')
      .unique()
      .references(() => patientProfiles.id, { onDelete: 'set null' }),
    createdByUserId: uuid('created_by_user_id').references((): AnyPgColumn => users.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('users_local_roles_idx').using('gin', t.localRoles),
    index('users_roles_idx').using('gin', t.roles),
    // Sortable columns carry the id too: a list sorted by them ends with the id (see lib/resources/filters.ts).
    // A name sorts by both names (last, then first, or the other way round) before the id.
    index('users_created_at_idx').on(t.createdAt, t.id),
    index('users_updated_at_idx').on(t.updatedAt, t.id),
    index('users_last_name_idx').on(t.lastName, t.firstName, t.id),
    index('users_first_name_idx').on(t.firstName, t.lastName, t.id),
    index('users_email_idx').on(t.email, t.id),
    index('users_created_by_idx').on(t.createdByUserId),
    // "contains" searches (filtersLike); the extension comes with migration 0002.
    index('users_username_trgm_idx').using('gin', sql`${t.username} gin_trgm_ops`),
    index('users_first_name_trgm_idx').using('gin', sql`${t.firstName} gin_trgm_ops`),
    index('users_last_name_trgm_idx').using('gin', sql`${t.lastName} gin_trgm_ops`),
    index('users_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
  ],
);

/** A patient's assigned nurses (a nurse does not list their patients). */
export const userAssignedNurses = defineLink(
  'user_assigned_nurses',
  { column: 'userId', references: users, list: 'assignedNurses' },
  { column: 'nurseId', references: users },
);
