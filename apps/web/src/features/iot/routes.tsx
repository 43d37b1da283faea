// The pages of IoT devices (spec §2): list, detail (the list when no id is given), create and edit.
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { iotDeviceCreateSchema, iotDeviceUpdateSchema } from '@careplane/shared/iot/iot.contract';
import { ResourceEdit } from '@/lib/resource-kit/form/resource-edit.tsx';
import { ResourceList } from '@/lib/resource-kit/list/resource-list.tsx';
import { IotDeviceDetail } from './components/iot-device-detail.tsx';
import { iotDeviceFields, iotDeviceFormRelations, iotDeviceResource } from './iot.resource.ts';

export function IotDeviceListPage() {
  return <ResourceList resource={iotDeviceResource} />;
}

export function IotDeviceDetailPage({ related }: { related?: ReactNode }) {
  const { id } = useParams();
  if (!id) return <IotDeviceListPage />;
  return <IotDeviceDetail key={id} id={id} related={related} />;
}

export function IotDeviceEditPage() {
  const { id } = useParams();
  return (
    <ResourceEdit
      key={id ?? 'new'}
      resource={iotDeviceResource}
      id={id}
      fields={iotDeviceFields}
      createSchema={iotDeviceCreateSchema}
      updateSchema={iotDeviceUpdateSchema}
      relations={iotDeviceFormRelations}
    />
  );
}
