// Device runner jobs as a resource description: columns, names, addresses and the add form.
import i18next from 'i18next';
import { deviceJobColumns } from '@careplane/shared/devices/devices.columns';
import { deviceJobListSpec, jobVocabulary, type DeviceJob } from '@careplane/shared/devices/devices.contract';
import { paths } from '@/config/paths.ts';
import { specTexts } from '@/lib/i18n/spec-texts.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
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

const columnTitles = Object.fromEntries(
  (['purpose', 'device', 'status', 'commands', 'notBefore', 'createdByUser', 'createdAt'] as const).map(
    (key) => [key, () => i18next.t(`devices:columns.${key}`)],
  ),
);

export const deviceJobResource = defineResource<DeviceJob>({
  queries: deviceJobQueries,
  spec: deviceJobListSpec,
  noun: () => i18next.t('devices:job.noun'),
  title: () => i18next.t('devices:job.title'),
  columns: deviceJobColumns,
  columnTitles,
  recordLabel: (job) => job.purpose,
  paths: { list: jobs.list.to, detail: jobs.detail.to, create: jobs.add.to },
  cellLinks: {
    device: (job) => paths.admin.devices.detail.to(job.deviceId),
    createdByUser: (job) => (job.createdByUserId ? paths.admin.users.detail.to(job.createdByUserId) : null),
  },
  labels: {
    status: () => i18next.t('devices:columns.status'),
    purpose: () => i18next.t('devices:columns.purpose'),
    commands: () => i18next.t('devices:columns.commands'),
    'device.id': () => i18next.t('devices:labels.device'),
    'createdByUser.id': () => i18next.t('devices:labels.createdBy'),
  },
  optionLabels: { status: (status) => enumLabel('jobStatus', status) },
  defaultSearch: 'purpose',
  phoneColumns: ['purpose', 'status'],
  detailRelations: ['device', 'createdByUser'],
  formFields: () => deviceJobFields,
});

export const deviceJobFields: readonly FieldSpec[] = [
  {
    kind: 'ref',
    name: 'device',
    label: () => i18next.t('devices:fields.device'),
    resource: 'devices',
    required: true,
  },
  {
    kind: 'text',
    name: 'purpose',
    label: () => i18next.t('devices:fields.purpose'),
    description: () => i18next.t('devices:fields.purposeHint', { text: specTexts.noPurposeProvided }),
    // The contract wants a purpose sent; a blank one is stored as the spec's default, as the hint says.
    sendEmpty: true,
  },
  {
    kind: 'lines',
    name: 'commands',
    label: () => i18next.t('devices:fields.commands'),
    required: true,
    description: () => i18next.t('devices:fields.commandsHint', { vocabulary: vocabularyHint }),
  },
  {
    kind: 'datetime',
    name: 'notBefore',
    label: () => i18next.t('devices:fields.notBefore'),
    description: () => i18next.t('devices:fields.notBeforeHint'),
  },
];
