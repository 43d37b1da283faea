// The columns of the command centers list: the console's table and the CSV export read these.
import { defineColumns } from '../common/list-columns.ts';
import type { SortPath } from '../common/list-spec.ts';
import { addressLine, createdOn, namesOf, personName, titleOf } from '../common/record-labels.ts';
import type { CommandCenter, commandCenterListSpec } from './command-centers.contract.ts';

export const commandCenterColumns = defineColumns<CommandCenter, SortPath<typeof commandCenterListSpec>>()([
  { key: 'title', title: 'Title', value: (center) => center.title, sort: 'title', truncate: 40 },
  { key: 'address', title: 'Address', value: (center) => addressLine(center.address), truncate: 40 },
  {
    key: 'assignedUsers',
    title: 'Assigned users',
    value: (center) => namesOf(center.assignedUsers, personName),
    relations: ['assignedUsers'],
    truncate: 40,
  },
  {
    key: 'devices',
    title: 'Devices',
    value: (center) => namesOf(center.devices, titleOf),
    relations: ['devices'],
    truncate: 40,
  },
  { key: 'createdAt', title: 'Created', value: createdOn, sort: 'createdAt' },
]);
