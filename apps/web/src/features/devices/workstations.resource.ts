// Workstations as a resource description: columns, names, addresses and the form's fields.
import { workstationName } from '@careplane/shared/common/record-labels';
import { workstationColumns } from '@careplane/shared/devices/devices.columns';
import { workstationListSpec, type Workstation } from '@careplane/shared/devices/devices.contract';
import { paths } from '@/config/paths.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { defineResource } from '@/lib/resource-kit/resource.ts';
import { workstationQueries } from './api/devices.queries.ts';

const workstations = paths.admin.workstations;

export const workstationResource = defineResource<Workstation>({
  queries: workstationQueries,
  spec: workstationListSpec,
  noun: 'workstation',
  title: 'Workstations',
  columns: workstationColumns,
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
    'device.id': 'Device',
    'assignedPatients.id': 'Patient',
    'assignedWorkstations.id': 'Assigned device',
    'createdByUser.id': 'Created by',
  },
  defaultSearch: 'title',
  detailRelations: workstationListSpec.relations,
});

export const workstationFormRelations = ['assignedPatients', 'assignedWorkstations'] as const;

export const workstationFields: readonly FieldSpec[] = [
  { kind: 'text', name: 'title', label: 'Title' },
  {
    kind: 'ref',
    name: 'device',
    label: 'Device',
    resource: 'devices',
    description: 'The device this workstation is',
  },
  {
    kind: 'refList',
    name: 'assignedPatients',
    label: 'Patients',
    resource: 'users',
    filters: ['localRoles~patient'],
  },
  {
    kind: 'refList',
    name: 'assignedWorkstations',
    label: 'Assigned devices',
    resource: 'devices',
    description: 'Devices that work with this workstation',
  },
];
