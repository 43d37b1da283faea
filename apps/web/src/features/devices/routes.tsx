// The pages of devices, device jobs and workstations (spec §2).
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import {
  deviceCreateSchema,
  deviceJobSubmissionSchema,
  deviceUpdateSchema,
  workstationCreateSchema,
  workstationUpdateSchema,
} from '@careplane/shared/devices/devices.contract';
import { ResourceEdit } from '@/lib/resource-kit/form/resource-edit.tsx';
import { ResourceList } from '@/lib/resource-kit/list/resource-list.tsx';
import { DeviceDetail } from './components/device-detail.tsx';
import { DeviceJobDetail } from './components/device-job-detail.tsx';
import { WorkstationDetail } from './components/workstation-detail.tsx';
import { deviceJobFields, deviceJobResource } from './device-jobs.resource.ts';
import { deviceFields, deviceFormRelations, deviceResource } from './devices.resource.ts';
import { workstationFields, workstationFormRelations, workstationResource } from './workstations.resource.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function DeviceListPage() {
  return <ResourceList resource={deviceResource} />;
}

export function DeviceDetailPage() {
  const { id = '' } = useParams();
  return <DeviceDetail key={id} id={id} />;
}

export function DeviceEditPage() {
  const { id } = useParams();
  return (
    <ResourceEdit
      key={id ?? 'new'}
      resource={deviceResource}
      id={id}
      fields={deviceFields}
      createSchema={deviceCreateSchema}
      updateSchema={deviceUpdateSchema}
      relations={deviceFormRelations}
      keepCreatedAnswer
    />
  );
}

export function DeviceJobListPage() {
  const { t } = useTranslation('devices');
  return <ResourceList resource={deviceJobResource} createLabel={t('job.addLabel')} />;
}

export function DeviceJobAddPage() {
  const { t } = useTranslation('devices');
  const [params] = useSearchParams();
  // "New job" on a device's page opens the form with that device chosen.
  const device = params.get('device');
  const start = useMemo(() => (device && UUID.test(device) ? { device } : undefined), [device]);
  return (
    <ResourceEdit
      resource={deviceJobResource}
      fields={deviceJobFields}
      createSchema={deviceJobSubmissionSchema}
      createTitle={t('job.addTitle')}
      start={start}
    />
  );
}

export function DeviceJobDetailPage() {
  const { id = '' } = useParams();
  return <DeviceJobDetail key={id} id={id} />;
}

export function WorkstationListPage() {
  return <ResourceList resource={workstationResource} />;
}

export function WorkstationDetailPage() {
  const { id = '' } = useParams();
  return <WorkstationDetail key={id} id={id} />;
}

export function WorkstationEditPage() {
  const { id } = useParams();
  return (
    <ResourceEdit
      key={id ?? 'new'}
      resource={workstationResource}
      id={id}
      fields={workstationFields}
      createSchema={workstationCreateSchema}
      updateSchema={workstationUpdateSchema}
      relations={workstationFormRelations}
    />
  );
}
