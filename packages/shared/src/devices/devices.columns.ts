// The columns of the devices, workstations and device jobs lists: the console's tables and the CSV export.
import { defineColumns } from '../common/list-columns.ts';
import type { SortPath } from '../common/list-spec.ts';
import {
  createdOn,
  iotDeviceName,
  namesOf,
  personName,
  textOf,
  titleOf,
  workstationName,
} from '../common/record-labels.ts';
import type {
  Device,
  DeviceJob,
  Workstation,
  deviceJobListSpec,
  deviceListSpec,
  workstationListSpec,
} from './devices.contract.ts';

export const deviceColumns = defineColumns<Device, SortPath<typeof deviceListSpec>>()([
  { key: 'title', title: 'Title', value: (device) => device.title, sort: 'title', truncate: 40 },
  {
    key: 'role',
    title: 'Role',
    value: (device, labels) => labels.enumText('deviceRole', device.role),
    sort: 'role',
  },
  {
    key: 'localRoles',
    title: 'Local roles',
    value: (device, labels) => labels.enumListText('deviceRole', device.localRoles),
    truncate: 40,
  },
  {
    key: 'isEnabled',
    title: 'Enabled',
    value: (device, labels) => labels.yesNo(device.isEnabled),
    sort: 'isEnabled',
  },
  {
    key: 'assignedUser',
    title: 'Assigned user',
    value: (device) => personName(device.assignedUser),
    relations: ['assignedUser'],
    truncate: 40,
  },
  {
    key: 'workstation',
    title: 'Workstation',
    value: (device) => workstationName(device.workstation),
    relations: ['workstation'],
    truncate: 40,
  },
  {
    key: 'commandCenter',
    title: 'Command center',
    value: (device) => titleOf(device.commandCenter),
    relations: ['commandCenter'],
    truncate: 40,
  },
  {
    key: 'location',
    title: 'Location',
    value: (device) => textOf(device.location?.title),
    truncate: 40,
  },
  { key: 'createdAt', title: 'Created', value: createdOn, sort: 'createdAt' },
]);

export const workstationColumns = defineColumns<Workstation, SortPath<typeof workstationListSpec>>()([
  {
    key: 'title',
    title: 'Title',
    value: (workstation) => workstationName(workstation),
    sort: 'title',
    relations: ['device'],
    truncate: 40,
  },
  {
    key: 'device',
    title: 'Device',
    value: (workstation) => titleOf(workstation.device),
    relations: ['device'],
    truncate: 40,
  },
  {
    key: 'assignedPatients',
    title: 'Patients',
    value: (workstation) => namesOf(workstation.assignedPatients, personName),
    relations: ['assignedPatients'],
    truncate: 60,
  },
  {
    key: 'assignedWorkstations',
    title: 'Assigned devices',
    value: (workstation) => namesOf(workstation.assignedWorkstations, titleOf),
    relations: ['assignedWorkstations'],
    truncate: 40,
  },
  { key: 'createdAt', title: 'Created', value: createdOn, sort: 'createdAt' },
]);

export const deviceJobColumns = defineColumns<DeviceJob, SortPath<typeof deviceJobListSpec>>()([
  { key: 'purpose', title: 'Purpose', value: (job) => job.purpose, sort: 'purpose', truncate: 40 },
  {
    key: 'device',
    title: 'Device',
    value: (job) => titleOf(job.device),
    relations: ['device'],
    truncate: 40,
  },
  {
    key: 'status',
    title: 'Status',
    value: (job, labels) => labels.enumText('jobStatus', job.status),
    sort: 'status',
  },
  { key: 'commands', title: 'Commands', value: (job) => job.commands.join('; '), truncate: 40 },
  {
    key: 'notBefore',
    title: 'Not before',
    value: (job, labels) => labels.dateTime(job.notBefore),
    sort: 'notBefore',
  },
  {
    key: 'createdByUser',
    title: 'Created by',
    value: (job) => personName(job.createdByUser),
    relations: ['createdByUser'],
    truncate: 40,
  },
  { key: 'createdAt', title: 'Created', value: createdOn, sort: 'createdAt' },
]);

/** IoT devices linked to a device, by name (device detail and CSV readers alike). */
export const linkedIotDevices = (device: Device) => namesOf(device.iotDevices, iotDeviceName);
