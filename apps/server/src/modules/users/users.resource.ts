// Users and patient profiles as generic resources: their filters, sorts, relations and write rules.
import { desc, sql } from 'drizzle-orm';
import { globalRoles, localUserRoles, patientStatuses } from '@careplane/shared/common/enums';
import {
  patientProfileCreateSchema,
  patientProfileSchema,
  patientProfileUpdateSchema,
  splitUsername,
  userCreateSchema,
  userSchema,
  userUpdateSchema,
} from '@careplane/shared/users/users.contract';
import {
  commandCenterUsers,
  patientProfiles,
  userAssignedNurses,
  userEmployers,
  users,
} from '../../db/schema/index.js';
import { badRequest } from '../../lib/errors.js';
import { columnFilter, kinds, linkFilter, referencedFilter } from '../../lib/resources/filters.js';
import type { ResourceDefinition } from '../../lib/resources/resource.js';

export const usersResource: ResourceDefinition = {
  name: 'users',
  entity: 'users',
  table: users,
  idColumn: users.id,
  path: '/api/users',
  schemas: { create: userCreateSchema, update: userUpdateSchema, item: userSchema },
  references: { patientProfile: 'patientProfileId' },
  links: {
    employers: {
      table: userEmployers,
      ownerKey: 'userId',
      ownerColumn: userEmployers.userId,
      targetKey: 'serviceProviderId',
    },
    assignedNurses: {
      table: userAssignedNurses,
      ownerKey: 'userId',
      ownerColumn: userAssignedNurses.userId,
      targetKey: 'nurseId',
    },
    commandCenters: {
      table: commandCenterUsers,
      ownerKey: 'userId',
      ownerColumn: commandCenterUsers.userId,
      targetKey: 'commandCenterId',
    },
  },
  createdByColumn: 'createdByUserId',
  derive: (body, mode) => {
    if (mode === 'create') {
      return typeof body.username === 'string' ? splitUsername(body.username) : {};
    }
    // A PATCH of additionalInfo merges into the stored object, so unsent keys keep their values.
    return body.additionalInfo
      ? { additionalInfo: sql`${users.additionalInfo} || ${JSON.stringify(body.additionalInfo)}::jsonb` }
      : {};
  },
  check: async (_executor, plan, mode, existing) => {
    const nurses = plan.links.assignedNurses ?? [];
    const selfId = existing?.id;
    if (mode === 'update' && selfId && nurses.includes(selfId as string)) {
      throw badRequest('A user cannot be their own nurse', [
        { path: 'assignedNurses', message: 'Must not contain the user itself' },
      ]);
    }
  },
  query: {
    idColumn: users.id,
    defaultSort: [desc(users.createdAt)],
    timeColumn: undefined,
    filters: {
      id: columnFilter(users.id, kinds.uuid),
      username: columnFilter(users.username, kinds.text),
      primaryDomain: columnFilter(users.primaryDomain, kinds.text),
      masterId: columnFilter(users.masterId, kinds.text),
      email: columnFilter(users.email, kinds.text),
      isVerified: columnFilter(users.isVerified, kinds.boolean),
      isBlocked: columnFilter(users.isBlocked, kinds.boolean),
      registrationCompleted: columnFilter(users.registrationCompleted, kinds.boolean),
      roles: columnFilter(users.roles, kinds.enum(globalRoles), { list: true }),
      localRoles: columnFilter(users.localRoles, kinds.enum(localUserRoles), { list: true }),
      'patientProfile.id': columnFilter(users.patientProfileId, kinds.uuid),
      'patientProfile.status': referencedFilter(
        users.patientProfileId,
        patientProfiles,
        patientProfiles.id,
        patientProfiles.status,
        kinds.enum(patientStatuses),
      ),
      'commandCenters.id': linkFilter(
        commandCenterUsers,
        commandCenterUsers.userId,
        commandCenterUsers.commandCenterId,
        users.id,
      ),
      'employers.id': linkFilter(
        userEmployers,
        userEmployers.userId,
        userEmployers.serviceProviderId,
        users.id,
      ),
      'assignedNurses.id': linkFilter(
        userAssignedNurses,
        userAssignedNurses.userId,
        userAssignedNurses.nurseId,
        users.id,
      ),
      'createdByUser.id': columnFilter(users.createdByUserId, kinds.uuid),
    },
    like: {
      id: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      phoneNumber: users.phoneNumber,
      name: sql`coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')`,
    },
    sorts: {
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    },
  },
};

export const patientProfilesResource: ResourceDefinition = {
  name: 'patient-profiles',
  entity: 'patientProfiles',
  table: patientProfiles,
  idColumn: patientProfiles.id,
  path: '/api/patient-profiles',
  schemas: {
    create: patientProfileCreateSchema,
    update: patientProfileUpdateSchema,
    item: patientProfileSchema,
  },
  references: { createdByUser: 'createdByUserId' },
  createdByColumn: 'createdByUserId',
  check: async (_executor, plan, mode) => {
    // Spec §5: a patient profile is created with status and createdByUser, both non-empty.
    if (mode === 'create' && !plan.values.createdByUserId) {
      throw badRequest('createdByUser is required', [
        { path: 'createdByUser', message: 'Required: sign in once or name the creating user' },
      ]);
    }
  },
  query: {
    idColumn: patientProfiles.id,
    defaultSort: [desc(patientProfiles.createdAt)],
    filters: {
      id: columnFilter(patientProfiles.id, kinds.uuid),
      status: columnFilter(patientProfiles.status, kinds.enum(patientStatuses)),
      'createdByUser.id': columnFilter(patientProfiles.createdByUserId, kinds.uuid),
    },
    like: { id: patientProfiles.id },
    sorts: {
      createdAt: patientProfiles.createdAt,
      updatedAt: patientProfiles.updatedAt,
      status: patientProfiles.status,
    },
  },
};
