// The columns of the service providers list: the console's table and the CSV export read these.
import { defineColumns } from '../common/list-columns.ts';
import type { SortPath } from '../common/list-spec.ts';
import { addressLine, createdOn, namesOf, personName } from '../common/record-labels.ts';
import type { ServiceProvider, serviceProviderListSpec } from './service-providers.contract.ts';

export const serviceProviderColumns = defineColumns<
  ServiceProvider,
  SortPath<typeof serviceProviderListSpec>
>()([
  { key: 'title', title: 'Title', value: (provider) => provider.title, sort: 'title', truncate: 40 },
  {
    key: 'type',
    title: 'Type',
    value: (provider, labels) => labels.enumText('serviceProviderType', provider.type),
    sort: 'type',
  },
  {
    key: 'isEnabled',
    title: 'Enabled',
    value: (provider, labels) => labels.yesNo(provider.isEnabled),
    sort: 'isEnabled',
  },
  { key: 'address', title: 'Address', value: (provider) => addressLine(provider.address), truncate: 40 },
  {
    key: 'employees',
    title: 'Employees',
    value: (provider) => namesOf(provider.employees, personName),
    relations: ['employees'],
    truncate: 40,
  },
  { key: 'createdAt', title: 'Created', value: createdOn, sort: 'createdAt' },
]);
