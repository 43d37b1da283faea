// Users and patient profiles as generic resources: their tables, contract schemas and list specs bound to SQL.
import {
  patientProfileCreateSchema,
  patientProfileEndpoints,
  patientProfileListSpec,
  patientProfileSchema,
  patientProfileUpdateSchema,
  userCreateSchema,
  userEndpoints,
  userListSpec,
  userSchema,
  userUpdateSchema,
} from '@careplane/shared/users/users.contract';
import { patientProfiles, users } from '@/db/schema/index.js';
import { patientColumns, userColumns } from '@careplane/shared/users/users.columns';
import { defineResource } from '@/lib/resources/definition.js';
import { bindListSpec, column, referenced } from '@/lib/resources/filters.js';
import { searchableName } from './users.repository.js';

export const usersResource = defineResource({
  name: 'users',
  label: 'User',
  entity: 'users',
  table: users,
  idColumn: users.id,
  path: userEndpoints.list,
  schemas: { create: userCreateSchema, update: userUpdateSchema, item: userSchema },
  references: { patientProfile: 'patientProfileId' },
  createdByColumn: 'createdByUserId',
  csv: { columns: userColumns, views: { patients: patientColumns } },
  list: {
    spec: userListSpec,
    query: bindListSpec(userListSpec, {
      idColumn: users.id,
      filters: {
        id: column(users.id),
        username: column(users.username),
        primaryDomain: column(users.primaryDomain),
        masterId: column(users.masterId),
        email: column(users.email),
        isVerified: column(users.isVerified),
        isBlocked: column(users.isBlocked),
        registrationCompleted: column(users.registrationCompleted),
        roles: column(users.roles),
        localRoles: column(users.localRoles),
        'patientProfile.id': column(users.patientProfileId),
        'patientProfile.status': referenced(
          users.patientProfileId,
          patientProfiles,
          patientProfiles.id,
          patientProfiles.status,
        ),
        'createdByUser.id': column(users.createdByUserId),
      },
      search: {
        id: users.id,
        username: users.username,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        phoneNumber: users.phoneNumber,
        name: searchableName,
      },
      sort: {
        createdAt: users.createdAt,
        updatedAt: users.updatedAt,
        username: users.username,
        // A name sorts by both names: two people of one family are listed by their other name, not their ids.
        firstName: [users.firstName, users.lastName],
        lastName: [users.lastName, users.firstName],
        email: users.email,
      },
    }),
  },
});

export const patientProfilesResource = defineResource({
  name: 'patient-profiles',
  label: 'Patient profile',
  entity: 'patientProfiles',
  table: patientProfiles,
  idColumn: patientProfiles.id,
  path: patientProfileEndpoints.list,
  schemas: {
    create: patientProfileCreateSchema,
    update: patientProfileUpdateSchema,
    item: patientProfileSchema,
  },
  references: { createdByUser: 'createdByUserId' },
  createdByColumn: 'createdByUserId',
  list: {
    spec: patientProfileListSpec,
    query: bindListSpec(patientProfileListSpec, {
      idColumn: patientProfiles.id,
      filters: {
        id: column(patientProfiles.id),
        status: column(patientProfiles.status),
        'createdByUser.id': column(patientProfiles.createdByUserId),
      },
      search: { id: patientProfiles.id },
      sort: {
        createdAt: patientProfiles.createdAt,
        updatedAt: patientProfiles.updatedAt,
        status: patientProfiles.status,
      },
    }),
  },
});
