// The columns of the IoT devices list: the console's table and the CSV export read these.
import { defineColumns } from '../common/list-columns.ts';
import type { SortPath } from '../common/list-spec.ts';
import { createdOn, namesOf, personName, titleOf } from '../common/record-labels.ts';
import type { IotDevice, iotDeviceListSpec } from './iot.contract.ts';

export const iotDeviceColumns = defineColumns<IotDevice, SortPath<typeof iotDeviceListSpec>>()([
  {
    key: 'hardwareIdentifier',
    title: 'Hardware identifier',
    value: (device) => device.hardwareIdentifier,
    sort: 'hardwareIdentifier',
    truncate: 40,
  },
  { key: 'model', title: 'Model', value: (device) => device.model, sort: 'model', truncate: 40 },
  {
    key: 'connectionType',
    title: 'Connection',
    value: (device, labels) => labels.enumText('connectionType', device.connectionType),
    sort: 'connectionType',
  },
  {
    key: 'trustLevel',
    title: 'Trust level',
    value: (device, labels) => labels.enumText('trustLevel', device.trustLevel),
    sort: 'trustLevel',
  },
  {
    key: 'supportedDataTypes',
    title: 'Data types',
    value: (device, labels) => labels.enumListText('iotDataType', device.supportedDataTypes),
    truncate: 40,
  },
  {
    key: 'assignedUser',
    title: 'Assigned user',
    value: (device) => personName(device.assignedUser),
    relations: ['assignedUser'],
    truncate: 40,
  },
  {
    key: 'devices',
    title: 'Client devices',
    value: (device) => namesOf(device.devices, titleOf),
    relations: ['devices'],
    truncate: 40,
  },
  {
    key: 'allowMultipleDeviceRelationships',
    title: 'Several devices',
    value: (device, labels) => labels.yesNo(device.allowMultipleDeviceRelationships),
  },
  { key: 'createdAt', title: 'Created', value: createdOn, sort: 'createdAt' },
]);
