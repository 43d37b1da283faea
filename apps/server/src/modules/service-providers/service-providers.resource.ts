// Service providers as a generic resource: filters, sorts, relations and write rules.
import { desc, eq, inArray, or, sql } from 'drizzle-orm';
import { serviceProviderTypes, type ServiceProviderType } from '@careplane/shared/common/enums';
import {
  shipperProviderTypes,
  supplierProviderTypes,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import {
  serviceProviderCreateSchema,
  serviceProviderSchema,
  serviceProviderUpdateSchema,
} from '@careplane/shared/service-providers/service-providers.contract';
import type { Executor } from '../../db/client.js';
import { prescriptions, serviceProviders, userEmployers, users } from '../../db/schema/index.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { columnFilter, kinds, linkFilter } from '../../lib/resources/filters.js';
import type { ResourceDefinition } from '../../lib/resources/resource.js';

async function unknownUserIds(executor: Executor, ids: string[]) {
  if (ids.length === 0) return [];
  const found = await executor.select({ id: users.id }).from(users).where(inArray(users.id, ids));
  const present = new Set(found.map((row) => row.id));
  return ids.filter((id) => !present.has(id));
}

/**
 * A provider's type decides which prescription roles it may fill; a type change that would leave an
 * existing prescription with a supplier that is no pharmacy (or a shipper that is no courier or nurse
 * provider) is refused.
 */
async function checkTypeChange(executor: Executor, providerId: string, type: ServiceProviderType) {
  const roles: string[] = [];
  const asSupplier = !(supplierProviderTypes as readonly string[]).includes(type);
  const asShipper = !(shipperProviderTypes as readonly string[]).includes(type);
  if (!asSupplier && !asShipper) return;
  const conditions = [
    ...(asSupplier ? [eq(prescriptions.supplierId, providerId)] : []),
    ...(asShipper ? [eq(prescriptions.shipperId, providerId)] : []),
  ];
  const [used] = await executor
    .select({
      supplier: sql<boolean>`bool_or(${prescriptions.supplierId} = ${providerId})`,
      shipper: sql<boolean>`bool_or(${prescriptions.shipperId} = ${providerId})`,
    })
    .from(prescriptions)
    .where(or(...conditions));
  if (asSupplier && used?.supplier) roles.push('supplier');
  if (asShipper && used?.shipper) roles.push('shipper');
  if (roles.length) {
    throw new AppError(409, `The service provider is the ${roles.join(' and ')} of prescriptions`, [
      {
        path: 'body.type',
        message: `A ${type} provider cannot be a prescription ${roles.join(' or ')}`,
      },
    ]);
  }
}

const addressPart = (part: string) => sql`${serviceProviders.address} ->> ${part}`;

export const serviceProvidersResource: ResourceDefinition = {
  name: 'service-providers',
  entity: 'serviceProviders',
  table: serviceProviders,
  idColumn: serviceProviders.id,
  path: '/api/service-providers',
  schemas: {
    create: serviceProviderCreateSchema,
    update: serviceProviderUpdateSchema,
    item: serviceProviderSchema,
  },
  links: {
    employees: {
      table: userEmployers,
      ownerKey: 'serviceProviderId',
      ownerColumn: userEmployers.serviceProviderId,
      targetKey: 'userId',
    },
  },
  createdByColumn: 'createdByUserId',
  check: async (executor, plan, mode, existing) => {
    const missing = await unknownUserIds(executor, plan.links.employees ?? []);
    if (missing.length) {
      throw badRequest('Unknown employees', [
        { path: 'body.employees', message: `No user with id ${missing.join(', ')}` },
      ]);
    }
    const type = plan.values.type as ServiceProviderType | undefined;
    if (mode === 'update' && existing && type && type !== existing.type) {
      await checkTypeChange(executor, existing.id as string, type);
    }
  },
  query: {
    idColumn: serviceProviders.id,
    defaultSort: [desc(serviceProviders.createdAt)],
    filters: {
      id: columnFilter(serviceProviders.id, kinds.uuid),
      type: columnFilter(serviceProviders.type, kinds.enum(serviceProviderTypes)),
      isEnabled: columnFilter(serviceProviders.isEnabled, kinds.boolean),
      'employees.id': linkFilter(
        userEmployers,
        userEmployers.serviceProviderId,
        userEmployers.userId,
        serviceProviders.id,
      ),
      'createdByUser.id': columnFilter(serviceProviders.createdByUserId, kinds.uuid),
    },
    like: {
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
    sorts: {
      createdAt: serviceProviders.createdAt,
      updatedAt: serviceProviders.updatedAt,
      title: serviceProviders.title,
      type: serviceProviders.type,
      isEnabled: serviceProviders.isEnabled,
    },
  },
};
