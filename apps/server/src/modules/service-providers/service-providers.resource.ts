// Service providers as a generic resource: table, contract schemas, list spec bound to SQL.
import { sql } from 'drizzle-orm';
import {
  serviceProviderCreateSchema,
  serviceProviderEndpoints,
  serviceProviderListSpec,
  serviceProviderSchema,
  serviceProviderUpdateSchema,
} from '@careplane/shared/service-providers/service-providers.contract';
import { serviceProviderColumns } from '@careplane/shared/service-providers/service-providers.columns';
import { serviceProviders } from '@/db/schema/index.js';
import { defineResource } from '@/lib/resources/definition.js';
import { bindListSpec, column } from '@/lib/resources/filters.js';

const addressPart = (part: string) => sql`${serviceProviders.address} ->> ${part}`;

export const serviceProvidersResource = defineResource({
  name: 'service-providers',
  label: 'Service provider',
  entity: 'serviceProviders',
  table: serviceProviders,
  idColumn: serviceProviders.id,
  path: serviceProviderEndpoints.list,
  schemas: {
    create: serviceProviderCreateSchema,
    update: serviceProviderUpdateSchema,
    item: serviceProviderSchema,
  },
  createdByColumn: 'createdByUserId',
  csv: { columns: serviceProviderColumns },
  list: {
    spec: serviceProviderListSpec,
    query: bindListSpec(serviceProviderListSpec, {
      idColumn: serviceProviders.id,
      filters: {
        id: column(serviceProviders.id),
        type: column(serviceProviders.type),
        isEnabled: column(serviceProviders.isEnabled),
        'createdByUser.id': column(serviceProviders.createdByUserId),
      },
      search: {
        id: serviceProviders.id,
        title: serviceProviders.title,
        'address.title': addressPart('title'),
        'address.street': addressPart('street'),
        'address.district': addressPart('district'),
        'address.city': addressPart('city'),
        'address.county': addressPart('county'),
        'address.postalCode': addressPart('postalCode'),
        'address.country': addressPart('country'),
      },
      sort: {
        createdAt: serviceProviders.createdAt,
        updatedAt: serviceProviders.updatedAt,
        title: serviceProviders.title,
        type: serviceProviders.type,
        isEnabled: serviceProviders.isEnabled,
      },
    }),
  },
});
