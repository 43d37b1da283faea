// Client devices as a resource description: columns (shared with the CSV export), names, addresses and the
// form's fields.
import i18next from 'i18next';
import { deviceRoles } from '@careplane/shared/common/enums';
import { deviceColumns } from '@careplane/shared/devices/devices.columns';
import { deviceListSpec, type Device } from '@careplane/shared/devices/devices.contract';
import { paths } from '@/config/paths.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { defineResource } from '@/lib/resource-kit/resource.ts';
import { deviceQueries } from './api/devices.queries.ts';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';

const devices = paths.admin.devices;

const columnTitles = Object.fromEntries(
  (
    [
      'title',
      'role',
      'localRoles',
      'isEnabled',
      'assignedUser',
      'workstation',
      'commandCenter',
      'location',
      'createdAt',
    ] as const
  ).map((key) => [key, () => i18next.t(`devices:columns.${key}`)]),
);

export const deviceResource = defineResource<Device>({
  queries: deviceQueries,
  spec: deviceListSpec,
  noun: () => i18next.t('devices:device.noun'),
  title: () => i18next.t('devices:device.title'),
  columns: deviceColumns,
  columnTitles,
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
    title: () => i18next.t('devices:columns.title'),
    role: () => i18next.t('devices:columns.role'),
    localRoles: () => i18next.t('devices:columns.localRoles'),
    'assignedUser.id': () => i18next.t('devices:labels.assignedUser'),
    'commandCenter.id': () => i18next.t('devices:labels.commandCenter'),
    'createdByUser.id': () => i18next.t('devices:labels.createdBy'),
    'workstation.id': () => i18next.t('devices:labels.workstation'),
    'iotDevices.id': () => i18next.t('devices:labels.iotDevice'),
    'location.title': () => i18next.t('devices:labels.location'),
    isEnabled: () => i18next.t('devices:labels.enabled'),
  },
  optionLabels: {
    role: (role) => enumLabel('deviceRole', role),
    localRoles: (role) => enumLabel('deviceRole', role),
  },
  defaultSearch: 'title',
  phoneColumns: ['title', 'isEnabled'],
  detailRelations: ['workstation', 'assignedUser', 'iotDevices', 'commandCenter', 'createdByUser'],
  formFields: () => deviceFields,
});

export const deviceFormRelations = ['iotDevices'] as const;

export const deviceFields: readonly FieldSpec[] = [
  { kind: 'text', name: 'title', label: () => i18next.t('devices:fields.title'), required: true },
  {
    kind: 'select',
    name: 'role',
    label: () => i18next.t('devices:fields.role'),
    options: deviceRoles,
    optionLabel: (role) => enumLabel('deviceRole', role),
  },
  {
    kind: 'multiselect',
    name: 'localRoles',
    label: () => i18next.t('devices:fields.localRoles'),
    options: deviceRoles,
    optionLabel: (role) => enumLabel('deviceRole', role),
  },
  { kind: 'switch', name: 'isEnabled', label: () => i18next.t('devices:fields.enabled'), defaultValue: true },
  {
    kind: 'ref',
    name: 'assignedUser',
    label: () => i18next.t('devices:fields.assignedUser'),
    resource: 'users',
  },
  {
    kind: 'ref',
    name: 'commandCenter',
    label: () => i18next.t('devices:fields.commandCenter'),
    resource: 'command-centers',
  },
  {
    kind: 'refList',
    name: 'iotDevices',
    label: () => i18next.t('devices:fields.iotDevices'),
    resource: 'iot-devices',
  },
  {
    kind: 'group',
    name: 'location',
    label: () => i18next.t('devices:fields.location'),
    fields: [
      { kind: 'text', name: 'title', label: () => i18next.t('devices:fields.place') },
      { kind: 'textarea', name: 'description', label: () => i18next.t('devices:fields.directions') },
      { kind: 'address', name: 'address', label: () => i18next.t('devices:fields.placeAddress') },
    ],
  },
];
