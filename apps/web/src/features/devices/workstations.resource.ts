// Workstations as a resource description: columns, names, addresses and the form's fields.
import i18next from 'i18next';
import { workstationName } from '@careplane/shared/common/record-labels';
import { workstationColumns } from '@careplane/shared/devices/devices.columns';
import { workstationListSpec, type Workstation } from '@careplane/shared/devices/devices.contract';
import { paths } from '@/config/paths.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { defineResource } from '@/lib/resource-kit/resource.ts';
import { workstationQueries } from './api/devices.queries.ts';

const workstations = paths.admin.workstations;

const columnTitles = Object.fromEntries(
  (['title', 'device', 'assignedPatients', 'assignedWorkstations', 'createdAt'] as const).map((key) => [
    key,
    () => i18next.t(`devices:columns.${key}`),
  ]),
);

export const workstationResource = defineResource<Workstation>({
  queries: workstationQueries,
  spec: workstationListSpec,
  noun: () => i18next.t('devices:workstation.noun'),
  title: () => i18next.t('devices:workstation.title'),
  columns: workstationColumns,
  columnTitles,
  recordLabel: (workstation) => workstationName(workstation),
  paths: {
    list: workstations.list.to,
    detail: workstations.detail.to,
    create: () => workstations.edit.to(),
    edit: workstations.edit.to,
  },
  cellLinks: {
    device: (workstation) =>
      workstation.deviceId ? paths.admin.devices.detail.to(workstation.deviceId) : null,
  },
  labels: {
    title: () => i18next.t('devices:columns.title'),
    'device.id': () => i18next.t('devices:labels.device'),
    'assignedPatients.id': () => i18next.t('devices:labels.patient'),
    'assignedWorkstations.id': () => i18next.t('devices:labels.assignedDevice'),
    'createdByUser.id': () => i18next.t('devices:labels.createdBy'),
  },
  defaultSearch: 'title',
  detailRelations: workstationListSpec.relations,
  formFields: () => workstationFields,
});

export const workstationFormRelations = ['assignedPatients', 'assignedWorkstations'] as const;

export const workstationFields: readonly FieldSpec[] = [
  { kind: 'text', name: 'title', label: () => i18next.t('devices:fields.title') },
  {
    kind: 'ref',
    name: 'device',
    label: () => i18next.t('devices:fields.device'),
    resource: 'devices',
    description: () => i18next.t('devices:fields.deviceHint'),
  },
  {
    kind: 'refList',
    name: 'assignedPatients',
    label: () => i18next.t('devices:fields.patients'),
    resource: 'users',
    filters: ['localRoles~patient'],
  },
  {
    kind: 'refList',
    name: 'assignedWorkstations',
    label: () => i18next.t('devices:fields.assignedDevices'),
    resource: 'devices',
    description: () => i18next.t('devices:fields.assignedDevicesHint'),
  },
];
