// Service providers as a resource description: columns (shared with the CSV export), names, addresses and
// the form's fields.
import { serviceProviderTypes } from '@careplane/shared/common/enums';
import { serviceProviderColumns } from '@careplane/shared/service-providers/service-providers.columns';
import {
  serviceProviderListSpec,
  type ServiceProvider,
} from '@careplane/shared/service-providers/service-providers.contract';
import { paths } from '@/config/paths.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { defineResource } from '@/lib/resource-kit/resource.ts';
import { serviceProviderQueries } from './api/service-providers.queries.ts';

const providers = paths.admin.serviceProviders;

export const serviceProviderResource = defineResource<ServiceProvider>({
  queries: serviceProviderQueries,
  spec: serviceProviderListSpec,
  noun: 'service provider',
  title: 'Service Providers',
  columns: serviceProviderColumns,
  recordLabel: (provider) => provider.title,
  paths: {
    list: providers.list.to,
    detail: (id) => providers.detail.to(id),
    create: providers.create.to,
    edit: providers.edit.to,
  },
  labels: {
    'employees.id': 'Employee',
    'createdByUser.id': 'Created by',
    isEnabled: 'Enabled',
    'address.title': 'Address title',
    'address.postalCode': 'Postal code',
  },
  defaultSearch: 'title',
  phoneColumns: ['title', 'type'],
  detailRelations: serviceProviderListSpec.relations,
});

export const serviceProviderFormRelations = ['employees'] as const;

export const serviceProviderFields: readonly FieldSpec[] = [
  { kind: 'text', name: 'title', label: 'Title', required: true },
  { kind: 'select', name: 'type', label: 'Type', options: serviceProviderTypes, required: true },
  { kind: 'switch', name: 'isEnabled', label: 'Enabled', defaultValue: true },
  { kind: 'refList', name: 'employees', label: 'Employees', resource: 'users' },
  { kind: 'address', name: 'address', label: 'Address', required: true },
];
