// Command centers as a resource description: columns (shared with the CSV export), names, addresses and the
// form's fields.
import { commandCenterColumns } from '@careplane/shared/command-centers/command-centers.columns';
import {
  commandCenterListSpec,
  type CommandCenter,
} from '@careplane/shared/command-centers/command-centers.contract';
import { paths } from '@/config/paths.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { defineResource } from '@/lib/resource-kit/resource.ts';
import { commandCenterQueries } from './api/command-centers.queries.ts';

const centers = paths.admin.commandCenters;

export const commandCenterResource = defineResource<CommandCenter>({
  queries: commandCenterQueries,
  spec: commandCenterListSpec,
  noun: 'command center',
  title: 'Command Centers',
  columns: commandCenterColumns,
  recordLabel: (center) => center.title,
  paths: {
    list: centers.list.to,
    detail: (id) => centers.detail.to(id),
    create: centers.create.to,
    edit: centers.edit.to,
  },
  labels: {
    'assignedUsers.id': 'Assigned user',
    'devices.id': 'Device',
    'createdByUser.id': 'Created by',
    'address.title': 'Address title',
    'address.postalCode': 'Postal code',
  },
  defaultSearch: 'title',
  detailRelations: commandCenterListSpec.relations,
});

export const commandCenterFormRelations = ['assignedUsers'] as const;

export const commandCenterFields: readonly FieldSpec[] = [
  { kind: 'text', name: 'title', label: 'Title', required: true },
  { kind: 'refList', name: 'assignedUsers', label: 'Assigned users', resource: 'users' },
  {
    kind: 'address',
    name: 'address',
    label: 'Address',
    required: true,
    requiredParts: ['title', 'street', 'city', 'country'],
  },
];
