// IoT devices as a resource description: columns (shared with the CSV export), names, addresses and the
// form's fields.
import { connectionTypes, iotDataTypes, trustLevels } from '@careplane/shared/common/enums';
import { iotDeviceName } from '@careplane/shared/common/record-labels';
import { iotDeviceColumns } from '@careplane/shared/iot/iot.columns';
import { iotDeviceListSpec, type IotDevice } from '@careplane/shared/iot/iot.contract';
import { paths } from '@/config/paths.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { defineResource } from '@/lib/resource-kit/resource.ts';
import { iotDeviceQueries } from './api/iot.queries.ts';

const iot = paths.admin.iotDevices;

export const iotDeviceResource = defineResource<IotDevice>({
  queries: iotDeviceQueries,
  spec: iotDeviceListSpec,
  noun: 'IoT device',
  title: 'IOT Devices',
  columns: iotDeviceColumns,
  recordLabel: (device) => iotDeviceName(device),
  paths: { list: iot.list.to, detail: (id) => iot.detail.to(id), create: iot.create.to, edit: iot.edit.to },
  cellLinks: {
    assignedUser: (device) =>
      device.assignedUserId ? paths.admin.users.detail.to(device.assignedUserId) : null,
  },
  labels: {
    'assignedUser.id': 'Assigned user',
    'createdByDevice.id': 'Created by device',
    'devices.id': 'Client device',
    allowMultipleDeviceRelationships: 'Several devices allowed',
    hardwareIdentifier: 'Hardware identifier',
    deviceIdentifier: 'Device identifier',
  },
  defaultSearch: 'hardwareIdentifier',
  phoneColumns: ['hardwareIdentifier', 'model'],
  detailRelations: iotDeviceListSpec.relations,
});

export const iotDeviceFormRelations = ['devices'] as const;

export const iotDeviceFields: readonly FieldSpec[] = [
  { kind: 'text', name: 'hardwareIdentifier', label: 'Hardware identifier', required: true },
  { kind: 'text', name: 'model', label: 'Model', required: true },
  { kind: 'text', name: 'deviceIdentifier', label: 'Device identifier' },
  {
    kind: 'select',
    name: 'connectionType',
    label: 'Connection type',
    options: connectionTypes,
    defaultValue: 'unknown',
    required: true,
  },
  { kind: 'select', name: 'trustLevel', label: 'Trust level', options: trustLevels },
  {
    kind: 'password',
    name: 'connectionSecret',
    label: 'Connection secret',
    description:
      'Required for a trusted device. It is never shown again; leave empty to keep the current one.',
  },
  { kind: 'multiselect', name: 'supportedDataTypes', label: 'Supported data types', options: iotDataTypes },
  { kind: 'ref', name: 'assignedUser', label: 'Assigned user', resource: 'users' },
  { kind: 'refList', name: 'devices', label: 'Client devices', resource: 'devices' },
  {
    kind: 'switch',
    name: 'allowMultipleDeviceRelationships',
    label: 'May be linked to several client devices',
  },
  { kind: 'json', name: 'connectionMeta', label: 'Connection details' },
];
