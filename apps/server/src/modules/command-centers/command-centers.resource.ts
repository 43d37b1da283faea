// Command centers as a generic resource: filters, sorts, relations and write rules.
import { desc, inArray, sql } from 'drizzle-orm';
import {
  commandCenterCreateSchema,
  commandCenterSchema,
  commandCenterUpdateSchema,
} from '@careplane/shared/command-centers/command-centers.contract';
import type { Executor } from '../../db/client.js';
import { commandCenterUsers, commandCenters, devices, users } from '../../db/schema/index.js';
import { badRequest } from '../../lib/errors.js';
import { columnFilter, kinds, linkFilter } from '../../lib/resources/filters.js';
import type { ResourceDefinition } from '../../lib/resources/resource.js';

async function unknownUserIds(executor: Executor, ids: string[]) {
  if (ids.length === 0) return [];
  const found = await executor.select({ id: users.id }).from(users).where(inArray(users.id, ids));
  const present = new Set(found.map((row) => row.id));
  return ids.filter((id) => !present.has(id));
}

const addressPart = (part: string) => sql`${commandCenters.address} ->> ${part}`;

export const commandCentersResource: ResourceDefinition = {
  name: 'command-centers',
  entity: 'commandCenters',
  table: commandCenters,
  idColumn: commandCenters.id,
  path: '/api/command-centers',
  schemas: {
    create: commandCenterCreateSchema,
    update: commandCenterUpdateSchema,
    item: commandCenterSchema,
  },
  links: {
    assignedUsers: {
      table: commandCenterUsers,
      ownerKey: 'commandCenterId',
      ownerColumn: commandCenterUsers.commandCenterId,
      targetKey: 'userId',
    },
  },
  createdByColumn: 'createdByUserId',
  check: async (executor, plan) => {
    const missing = await unknownUserIds(executor, plan.links.assignedUsers ?? []);
    if (missing.length) {
      throw badRequest('Unknown assigned users', [
        { path: 'body.assignedUsers', message: `No user with id ${missing.join(', ')}` },
      ]);
    }
  },
  query: {
    idColumn: commandCenters.id,
    defaultSort: [desc(commandCenters.createdAt)],
    filters: {
      id: columnFilter(commandCenters.id, kinds.uuid),
      'assignedUsers.id': linkFilter(
        commandCenterUsers,
        commandCenterUsers.commandCenterId,
        commandCenterUsers.userId,
        commandCenters.id,
      ),
      // A device points at its command center, so the device table serves as the link.
      'devices.id': linkFilter(devices, devices.commandCenterId, devices.id, commandCenters.id),
      'createdByUser.id': columnFilter(commandCenters.createdByUserId, kinds.uuid),
    },
    like: {
      id: commandCenters.id,
      title: commandCenters.title,
      'address.title': addressPart('title'),
      'address.street': addressPart('street'),
      'address.district': addressPart('district'),
      'address.city': addressPart('city'),
      'address.county': addressPart('county'),
      'address.postalCode': addressPart('postalCode'),
      'address.country': addressPart('country'),
    },
    sorts: {
      createdAt: commandCenters.createdAt,
      updatedAt: commandCenters.updatedAt,
      title: commandCenters.title,
    },
  },
};
