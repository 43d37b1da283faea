// Device runner jobs as a resource description: columns, names, addresses and the add form.
import { deviceJobColumns } from '@careplane/shared/devices/devices.columns';
import { deviceJobListSpec, jobVocabulary, type DeviceJob } from '@careplane/shared/devices/devices.contract';
import { paths } from '@/config/paths.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { defineResource } from '@/lib/resource-kit/resource.ts';
import { deviceJobQueries } from './api/devices.queries.ts';

const jobs = paths.admin.deviceJobs;

/** What each command of the vocabulary takes, for the form's hint. */
const commandArguments: Partial<Record<(typeof jobVocabulary)[number], string>> = {
  ping: '<host>',
  notify: '<text>',
};
const vocabularyHint = jobVocabulary
  .map((verb) => (commandArguments[verb] ? `${verb} ${commandArguments[verb]}` : verb))
  .join(', ');

export const deviceJobResource = defineResource<DeviceJob>({
  queries: deviceJobQueries,
  spec: deviceJobListSpec,
  noun: 'device job',
  title: 'Device Jobs',
  columns: deviceJobColumns,
  recordLabel: (job) => job.purpose,
  paths: { list: jobs.list.to, detail: jobs.detail.to, create: jobs.add.to },
  cellLinks: {
    device: (job) => paths.admin.devices.detail.to(job.deviceId),
    createdByUser: (job) => (job.createdByUserId ? paths.admin.users.detail.to(job.createdByUserId) : null),
  },
  labels: { 'device.id': 'Device', 'createdByUser.id': 'Created by' },
  defaultSearch: 'purpose',
  phoneColumns: ['purpose', 'status'],
  detailRelations: ['device', 'createdByUser'],
});

export const deviceJobFields: readonly FieldSpec[] = [
  { kind: 'ref', name: 'device', label: 'Device', resource: 'devices', required: true },
  {
    kind: 'text',
    name: 'purpose',
    label: 'Purpose',
    description: 'Left empty, it reads “No purpose provided.”',
  },
  {
    kind: 'lines',
    name: 'commands',
    label: 'Commands',
    required: true,
    description: `One per line, from what the agent knows: ${vocabularyHint}. Anything else runs only on an agent allowed to run shell commands`,
  },
  {
    kind: 'datetime',
    name: 'notBefore',
    label: 'Not before',
    description: 'The device gets the job from this moment on; empty means now',
  },
];
