// IoT devices as a resource description: columns (shared with the CSV export), names, addresses and the
// form's fields.
import i18next from 'i18next';
import { connectionTypes, iotDataTypes, trustLevels } from '@careplane/shared/common/enums';
import { iotDeviceName } from '@careplane/shared/common/record-labels';
import { iotDeviceColumns } from '@careplane/shared/iot/iot.columns';
import { iotDeviceListSpec, type IotDevice } from '@careplane/shared/iot/iot.contract';
import { paths } from '@/config/paths.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { defineResource } from '@/lib/resource-kit/resource.ts';
import { iotDeviceQueries } from './api/iot.queries.ts';

const iot = paths.admin.iotDevices;

/** Column headers in the reader's language, from its catalog (Thai's are the CSV export's Thai headers). */
const columnTitles = Object.fromEntries(
  (
    [
      'hardwareIdentifier',
      'model',
      'connectionType',
      'trustLevel',
      'supportedDataTypes',
      'assignedUser',
      'devices',
      'allowMultipleDeviceRelationships',
      'createdAt',
    ] as const
  ).map((key) => [key, () => i18next.t(`iot:columns.${key}`)]),
);

export const iotDeviceResource = defineResource<IotDevice>({
  queries: iotDeviceQueries,
  spec: iotDeviceListSpec,
  noun: () => i18next.t('iot:noun'),
  title: () => i18next.t('iot:title'),
  columns: iotDeviceColumns,
  columnTitles,
  recordLabel: (device) => iotDeviceName(device),
  paths: { list: iot.list.to, detail: (id) => iot.detail.to(id), create: iot.create.to, edit: iot.edit.to },
  cellLinks: {
    assignedUser: (device) =>
      device.assignedUserId ? paths.admin.users.detail.to(device.assignedUserId) : null,
  },
  labels: {
    'assignedUser.id': () => i18next.t('iot:labels.assignedUser'),
    'createdByDevice.id': () => i18next.t('iot:labels.createdByDevice'),
    'devices.id': () => i18next.t('iot:labels.clientDevice'),
    allowMultipleDeviceRelationships: () => i18next.t('iot:labels.severalDevices'),
    hardwareIdentifier: () => i18next.t('iot:labels.hardwareIdentifier'),
    deviceIdentifier: () => i18next.t('iot:labels.deviceIdentifier'),
    model: () => i18next.t('iot:columns.model'),
    connectionType: () => i18next.t('iot:columns.connectionType'),
    supportedDataTypes: () => i18next.t('iot:columns.supportedDataTypes'),
    trustLevel: () => i18next.t('iot:columns.trustLevel'),
  },
  optionLabels: {
    connectionType: (type) => enumLabel('connectionType', type),
    supportedDataTypes: (type) => enumLabel('iotDataType', type),
    trustLevel: (level) => enumLabel('trustLevel', level),
  },
  defaultSearch: 'hardwareIdentifier',
  phoneColumns: ['hardwareIdentifier', 'model'],
  detailRelations: iotDeviceListSpec.relations,
  formFields: () => iotDeviceFields,
});

export const iotDeviceFormRelations = ['devices'] as const;

export const iotDeviceFields: readonly FieldSpec[] = [
  {
    kind: 'text',
    name: 'hardwareIdentifier',
    label: () => i18next.t('iot:fields.hardwareIdentifier'),
    required: true,
  },
  { kind: 'text', name: 'model', label: () => i18next.t('iot:fields.model'), required: true },
  { kind: 'text', name: 'deviceIdentifier', label: () => i18next.t('iot:fields.deviceIdentifier') },
  {
    kind: 'select',
    name: 'connectionType',
    label: () => i18next.t('iot:fields.connectionType'),
    options: connectionTypes,
    optionLabel: (type) => enumLabel('connectionType', type),
    defaultValue: 'unknown',
    required: true,
  },
  {
    kind: 'select',
    name: 'trustLevel',
    label: () => i18next.t('iot:fields.trustLevel'),
    options: trustLevels,
    optionLabel: (level) => enumLabel('trustLevel', level),
  },
  // A new device has no secret to keep: only an edit offers to leave it as it is.
  {
    kind: 'password',
    name: 'connectionSecret',
    only: 'create',
    label: () => i18next.t('iot:fields.connectionSecret'),
    description: () => i18next.t('iot:fields.connectionSecretNewHint'),
  },
  {
    kind: 'password',
    name: 'connectionSecret',
    only: 'edit',
    label: () => i18next.t('iot:fields.connectionSecret'),
    description: () => i18next.t('iot:fields.connectionSecretHint'),
  },
  {
    kind: 'multiselect',
    name: 'supportedDataTypes',
    label: () => i18next.t('iot:fields.supportedDataTypes'),
    options: iotDataTypes,
    optionLabel: (type) => enumLabel('iotDataType', type),
  },
  { kind: 'ref', name: 'assignedUser', label: () => i18next.t('iot:fields.assignedUser'), resource: 'users' },
  {
    kind: 'refList',
    name: 'devices',
    label: () => i18next.t('iot:fields.clientDevices'),
    resource: 'devices',
  },
  {
    kind: 'switch',
    name: 'allowMultipleDeviceRelationships',
    label: () => i18next.t('iot:fields.allowMultiple'),
  },
  { kind: 'json', name: 'connectionMeta', label: () => i18next.t('iot:fields.connectionMeta') },
];
