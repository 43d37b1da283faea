// Client devices as a resource description: columns (shared with the CSV export), names, addresses and the
// form's fields.
import { deviceRoles } from '@careplane/shared/common/enums';
import { deviceColumns } from '@careplane/shared/devices/devices.columns';
import { deviceListSpec, type Device } from '@careplane/shared/devices/devices.contract';
import { paths } from '@/config/paths.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { defineResource } from '@/lib/resource-kit/resource.ts';
import { deviceQueries } from './api/devices.queries.ts';

const devices = paths.admin.devices;

export const deviceResource = defineResource<Device>({
  queries: deviceQueries,
  spec: deviceListSpec,
  noun: 'device',
  title: 'Devices',
  columns: deviceColumns,
  recordLabel: (device) => device.title,
  paths: {
    list: devices.list.to,
    detail: devices.detail.to,
    create: () => devices.edit.to(),
    edit: devices.edit.to,
  },
  cellLinks: {
    assignedUser: (device) =>
      device.assignedUserId ? paths.admin.users.detail.to(device.assignedUserId) : null,
    workstation: (device) =>
      device.workstation ? paths.admin.workstations.detail.to(device.workstation.id) : null,
    commandCenter: (device) =>
      device.commandCenterId ? paths.admin.commandCenters.detail.to(device.commandCenterId) : null,
  },
  labels: {
    'assignedUser.id': 'Assigned user',
    'commandCenter.id': 'Command center',
    'createdByUser.id': 'Created by',
    'workstation.id': 'Workstation',
    'iotDevices.id': 'IoT device',
    'location.title': 'Location',
    isEnabled: 'Enabled',
  },
  defaultSearch: 'title',
  phoneColumns: ['title', 'isEnabled'],
  detailRelations: ['workstation', 'assignedUser', 'iotDevices', 'commandCenter', 'createdByUser'],
});

export const deviceFormRelations = ['iotDevices'] as const;

export const deviceFields: readonly FieldSpec[] = [
  { kind: 'text', name: 'title', label: 'Title', required: true },
  { kind: 'select', name: 'role', label: 'Role', options: deviceRoles },
  { kind: 'multiselect', name: 'localRoles', label: 'Local roles', options: deviceRoles },
  { kind: 'switch', name: 'isEnabled', label: 'Enabled', defaultValue: true },
  { kind: 'ref', name: 'assignedUser', label: 'Assigned user', resource: 'users' },
  { kind: 'ref', name: 'commandCenter', label: 'Command center', resource: 'command-centers' },
  { kind: 'refList', name: 'iotDevices', label: 'IoT devices', resource: 'iot-devices' },
  {
    kind: 'group',
    name: 'location',
    label: 'Location',
    fields: [
      { kind: 'text', name: 'title', label: 'Place' },
      { kind: 'textarea', name: 'description', label: 'Directions' },
      { kind: 'address', name: 'address', label: 'Address of the place' },
    ],
  },
];
