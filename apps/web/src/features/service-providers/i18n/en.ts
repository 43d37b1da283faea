// The service providers' texts (namespace `service-providers`): the admin list, form and detail of a
// pharmacy, courier or nursing service. Thai in th.ts, with the same keys.
import type { Translation } from '@/lib/i18n/translation.ts';

const serviceProviders = {
  noun: 'service provider',
  title: 'Service Providers',
  columns: {
    title: 'Title',
    type: 'Type',
    isEnabled: 'Enabled',
    address: 'Address',
    employees: 'Employees',
    createdAt: 'Created',
  },
  labels: {
    id: 'ID',
    title: 'Title',
    type: 'Type',
    isEnabled: 'Enabled',
    employee: 'Employee',
    createdBy: 'Created by',
    addressTitle: 'Address title',
    street: 'Address street',
    district: 'Address district',
    city: 'Address city',
    county: 'Address county',
    postalCode: 'Postal code',
    country: 'Address country',
  },
  fields: {
    title: 'Title',
    type: 'Type',
    isEnabled: 'Enabled',
    employees: 'Employees',
    address: 'Address',
  },
  detail: {
    section: 'Service provider',
    title: 'Title',
    type: 'Type',
    isEnabled: 'Enabled',
    yes: 'Yes',
    no: 'No',
    address: 'Address',
    addressTitle: 'Address title',
    latLng: 'Latitude, longitude',
    created: 'Created',
    createdBy: 'Created by',
    employees: 'Employees',
    noEmployees: 'No employees.',
    prescriptions: 'Prescriptions',
    supplied: 'Supplied by this provider',
    shipped: 'Shipped by this provider',
  },
} as const;

export default serviceProviders;

declare module 'i18next' {
  interface ResourceNamespaceMap {
    'service-providers': Translation<typeof serviceProviders>;
  }
}
