// Service providers as a resource description: columns (shared with the CSV export), names, addresses and
// the form's fields.
import { serviceProviderTypes } from '@careplane/shared/common/enums';
import { serviceProviderColumns } from '@careplane/shared/service-providers/service-providers.columns';
import {
  serviceProviderListSpec,
  type ServiceProvider,
} from '@careplane/shared/service-providers/service-providers.contract';
import i18next from 'i18next';
import { paths } from '@/config/paths.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { defineResource } from '@/lib/resource-kit/resource.ts';
import { serviceProviderQueries } from './api/service-providers.queries.ts';

const providers = paths.admin.serviceProviders;

export const serviceProviderResource = defineResource<ServiceProvider>({
  queries: serviceProviderQueries,
  spec: serviceProviderListSpec,
  noun: () => i18next.t('service-providers:noun'),
  title: () => i18next.t('service-providers:title'),
  columns: serviceProviderColumns,
  columnTitles: {
    title: () => i18next.t('service-providers:columns.title'),
    type: () => i18next.t('service-providers:columns.type'),
    isEnabled: () => i18next.t('service-providers:columns.isEnabled'),
    address: () => i18next.t('service-providers:columns.address'),
    employees: () => i18next.t('service-providers:columns.employees'),
    createdAt: () => i18next.t('service-providers:columns.createdAt'),
  },
  recordLabel: (provider) => provider.title,
  paths: {
    list: providers.list.to,
    detail: (id) => providers.detail.to(id),
    create: providers.create.to,
    edit: providers.edit.to,
  },
  labels: {
    id: () => i18next.t('service-providers:labels.id'),
    title: () => i18next.t('service-providers:labels.title'),
    type: () => i18next.t('service-providers:labels.type'),
    isEnabled: () => i18next.t('service-providers:labels.isEnabled'),
    'employees.id': () => i18next.t('service-providers:labels.employee'),
    'createdByUser.id': () => i18next.t('service-providers:labels.createdBy'),
    'address.title': () => i18next.t('service-providers:labels.addressTitle'),
    'address.street': () => i18next.t('service-providers:labels.street'),
    'address.district': () => i18next.t('service-providers:labels.district'),
    'address.city': () => i18next.t('service-providers:labels.city'),
    'address.county': () => i18next.t('service-providers:labels.county'),
    'address.postalCode': () => i18next.t('service-providers:labels.postalCode'),
    'address.country': () => i18next.t('service-providers:labels.country'),
  },
  optionLabels: { type: (type) => enumLabel('serviceProviderType', type) },
  defaultSearch: 'title',
  phoneColumns: ['title', 'type'],
  detailRelations: serviceProviderListSpec.relations,
  formFields: () => serviceProviderFields,
});

export const serviceProviderFormRelations = ['employees'] as const;

export const serviceProviderFields: readonly FieldSpec[] = [
  { kind: 'text', name: 'title', label: () => i18next.t('service-providers:fields.title'), required: true },
  {
    kind: 'select',
    name: 'type',
    label: () => i18next.t('service-providers:fields.type'),
    options: serviceProviderTypes,
    optionLabel: (type) => enumLabel('serviceProviderType', type),
    required: true,
  },
  {
    kind: 'switch',
    name: 'isEnabled',
    label: () => i18next.t('service-providers:fields.isEnabled'),
    defaultValue: true,
  },
  {
    kind: 'refList',
    name: 'employees',
    label: () => i18next.t('service-providers:fields.employees'),
    resource: 'users',
  },
  {
    kind: 'address',
    name: 'address',
    label: () => i18next.t('service-providers:fields.address'),
    required: true,
  },
];
