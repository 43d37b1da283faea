// Command centers as a resource description: columns (shared with the CSV export), names, addresses and the
// form's fields.
import { commandCenterColumns } from '@careplane/shared/command-centers/command-centers.columns';
import {
  commandCenterListSpec,
  type CommandCenter,
} from '@careplane/shared/command-centers/command-centers.contract';
import i18next from 'i18next';
import { paths } from '@/config/paths.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { defineResource } from '@/lib/resource-kit/resource.ts';
import { commandCenterQueries } from './api/command-centers.queries.ts';

const centers = paths.admin.commandCenters;

export const commandCenterResource = defineResource<CommandCenter>({
  queries: commandCenterQueries,
  spec: commandCenterListSpec,
  noun: () => i18next.t('command-centers:noun'),
  title: () => i18next.t('command-centers:title'),
  columns: commandCenterColumns,
  columnTitles: {
    title: () => i18next.t('command-centers:columns.title'),
    address: () => i18next.t('command-centers:columns.address'),
    assignedUsers: () => i18next.t('command-centers:columns.assignedUsers'),
    devices: () => i18next.t('command-centers:columns.devices'),
    createdAt: () => i18next.t('command-centers:columns.createdAt'),
  },
  recordLabel: (center) => center.title,
  paths: {
    list: centers.list.to,
    detail: (id) => centers.detail.to(id),
    create: centers.create.to,
    edit: centers.edit.to,
  },
  labels: {
    id: () => i18next.t('command-centers:labels.id'),
    title: () => i18next.t('command-centers:labels.title'),
    'assignedUsers.id': () => i18next.t('command-centers:labels.assignedUser'),
    'devices.id': () => i18next.t('command-centers:labels.device'),
    'createdByUser.id': () => i18next.t('command-centers:labels.createdBy'),
    'address.title': () => i18next.t('command-centers:labels.addressTitle'),
    'address.street': () => i18next.t('command-centers:labels.street'),
    'address.district': () => i18next.t('command-centers:labels.district'),
    'address.city': () => i18next.t('command-centers:labels.city'),
    'address.county': () => i18next.t('command-centers:labels.county'),
    'address.postalCode': () => i18next.t('command-centers:labels.postalCode'),
    'address.country': () => i18next.t('command-centers:labels.country'),
  },
  defaultSearch: 'title',
  detailRelations: commandCenterListSpec.relations,
  formFields: () => commandCenterFields,
});

export const commandCenterFormRelations = ['assignedUsers'] as const;

export const commandCenterFields: readonly FieldSpec[] = [
  { kind: 'text', name: 'title', label: () => i18next.t('command-centers:fields.title'), required: true },
  {
    kind: 'refList',
    name: 'assignedUsers',
    label: () => i18next.t('command-centers:fields.assignedUsers'),
    resource: 'users',
  },
  {
    kind: 'address',
    name: 'address',
    label: () => i18next.t('command-centers:fields.address'),
    required: true,
    requiredParts: ['title', 'street', 'city', 'country'],
  },
];
