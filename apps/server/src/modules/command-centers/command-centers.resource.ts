// Command centers as a generic resource: table, contract schemas, list spec bound to SQL.
import { sql } from 'drizzle-orm';
import {
  commandCenterCreateSchema,
  commandCenterEndpoints,
  commandCenterListSpec,
  commandCenterSchema,
  commandCenterUpdateSchema,
} from '@careplane/shared/command-centers/command-centers.contract';
import { commandCenterColumns } from '@careplane/shared/command-centers/command-centers.columns';
import { commandCenters, devices } from '@/db/schema/index.js';
import { defineResource } from '@/lib/resources/definition.js';
import { bindListSpec, column, link } from '@/lib/resources/filters.js';

const addressPart = (part: string) => sql`${commandCenters.address} ->> ${part}`;

export const commandCentersResource = defineResource({
  name: 'command-centers',
  label: 'Command center',
  entity: 'commandCenters',
  table: commandCenters,
  idColumn: commandCenters.id,
  path: commandCenterEndpoints.list,
  schemas: {
    create: commandCenterCreateSchema,
    update: commandCenterUpdateSchema,
    item: commandCenterSchema,
  },
  createdByColumn: 'createdByUserId',
  csv: { columns: commandCenterColumns },
  list: {
    spec: commandCenterListSpec,
    query: bindListSpec(commandCenterListSpec, {
      idColumn: commandCenters.id,
      filters: {
        id: column(commandCenters.id),
        // A device points at its command center, so the device table serves as the link.
        'devices.id': link(devices, devices.commandCenterId, devices.id, commandCenters.id),
        'createdByUser.id': column(commandCenters.createdByUserId),
      },
      search: {
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
      sort: {
        createdAt: commandCenters.createdAt,
        updatedAt: commandCenters.updatedAt,
        title: commandCenters.title,
      },
    }),
  },
});
