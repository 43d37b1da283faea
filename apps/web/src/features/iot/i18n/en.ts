// The texts of IoT devices (namespace `iot`): the list, form, page, last submission and readings chart. Thai
// in th.ts, with the same keys.
import type { Translation } from '@/lib/i18n/translation.ts';

const iot = {
  noun: 'IoT device',
  title: 'IOT Devices',
  labels: {
    assignedUser: 'Assigned user',
    createdByDevice: 'Created by device',
    clientDevice: 'Client device',
    severalDevices: 'Several devices allowed',
    hardwareIdentifier: 'Hardware identifier',
    deviceIdentifier: 'Device identifier',
  },
  columns: {
    hardwareIdentifier: 'Hardware identifier',
    model: 'Model',
    connectionType: 'Connection',
    trustLevel: 'Trust level',
    supportedDataTypes: 'Data types',
    assignedUser: 'Assigned user',
    devices: 'Client devices',
    allowMultipleDeviceRelationships: 'Several devices',
    createdAt: 'Created',
  },
  fields: {
    hardwareIdentifier: 'Hardware identifier',
    model: 'Model',
    deviceIdentifier: 'Device identifier',
    connectionType: 'Connection type',
    trustLevel: 'Trust level',
    connectionSecret: 'Connection secret',
    connectionSecretNewHint: 'Required for a trusted device. It is never shown again.',
    connectionSecretHint:
      'Required for a trusted device. It is never shown again; leave empty to keep the current one.',
    supportedDataTypes: 'Supported data types',
    assignedUser: 'Assigned user',
    clientDevices: 'Client devices',
    allowMultiple: 'May be linked to several client devices',
    connectionMeta: 'Connection details',
  },
  detail: {
    section: 'IoT device',
    hardwareIdentifier: 'Hardware identifier',
    model: 'Model',
    deviceIdentifier: 'Device identifier',
    connectionType: 'Connection type',
    trustLevel: 'Trust level',
    severalAllowed: 'Several client devices allowed',
    supportedDataTypes: 'Supported data types',
    created: 'Created',
    updated: 'Updated',
    connectionDetails: 'Connection details',
    relations: 'Relations',
    assignedUser: 'Assigned user',
    clientDevices: 'Client devices',
    createdByDevice: 'Created by device',
    yes: 'Yes',
    no: 'No',
  },
  readings: {
    lastSubmission: 'Last data submission',
    loading: 'Loading…',
    lastFailed: 'Could not load the last submission.',
    taken: 'Taken',
    dataType: 'Data type',
    received: 'Received',
    reading: 'Reading',
    noData: 'This device has sent no data yet.',
    title: 'Readings',
    failed: 'Could not load the readings.',
    value: 'value',
    summary_one: '{{count}} {{type}} reading from {{from}} to {{to}}.',
    summary_other: '{{count}} {{type}} readings from {{from}} to {{to}}.',
    tableLabel: '{{type}} readings',
    none: 'No readings in this period.',
    newestDrawn: 'The newest {{count}} of {{total}} readings in this period are drawn.',
    averaged:
      'All {{total}} readings of this period are drawn, in {{parts}} equal parts of it: the solid line is the mean of each part, the dashed lines its highest and lowest reading.',
    level: 'Level',
    heartRate: 'Heart rate',
    temperature: 'Temperature',
    pressure: 'Pressure',
    systolic: 'Systolic',
    diastolic: 'Diastolic',
  },
} as const;

export default iot;

declare module 'i18next' {
  interface ResourceNamespaceMap {
    iot: Translation<typeof iot>;
  }
}
