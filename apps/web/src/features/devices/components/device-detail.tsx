// A device's page: what it is, its roles (with promotion), workstation, user, IoT devices, command center,
// charts, recent stats, jobs, the token shown once after creation or re-keying, and its history.
import { Badge, Button, Group } from '@mantine/core';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { deviceRoles } from '@careplane/shared/common/enums';
import { formatDateTime } from '@careplane/shared/common/formats';
import { addressLine, enumText, textOf, yesNo } from '@careplane/shared/common/record-labels';
import type { Device, DeviceCreated } from '@careplane/shared/devices/devices.contract';
import { modals } from '@mantine/modals';
import { Text } from '@mantine/core';
import {
  DetailField,
  DetailSection,
  FieldGrid,
  RecordLink,
  RecordLinks,
} from '@/lib/resource-kit/detail/detail-parts.tsx';
import { PromoteControl } from '@/lib/resource-kit/detail/promote.tsx';
import { ResourceDetail } from '@/lib/resource-kit/detail/resource-detail.tsx';
import { usePromoteDevice, useRekeyDevice } from '../api/devices.queries.ts';
import { deviceResource } from '../devices.resource.ts';
import { DeviceJobsSection } from './device-jobs-section.tsx';
import { DeviceCharts, RecentStats } from './device-stats.tsx';
import { DeviceTokenNotice } from './device-token-notice.tsx';

function DeviceSections({ device }: { device: Device }) {
  const promote = usePromoteDevice();
  const location = device.location;
  return (
    <>
      <DetailSection title="Device">
        <FieldGrid>
          <DetailField label="Title">{device.title}</DetailField>
          <DetailField label="Role">{enumText(device.role)}</DetailField>
          <DetailField label="Enabled">{yesNo(device.isEnabled)}</DetailField>
          <DetailField label="Location">
            {[textOf(location?.title), addressLine(location?.address as Record<string, unknown> | undefined)]
              .filter(Boolean)
              .join(' · ')}
          </DetailField>
          <DetailField label="Directions">{textOf(location?.description)}</DetailField>
          <DetailField label="Created">{formatDateTime(device.createdAt)}</DetailField>
          <DetailField label="Updated">{formatDateTime(device.updatedAt)}</DetailField>
          <DetailField label="Created by">
            {device.createdByUser ? <RecordLink resource="users" record={device.createdByUser} /> : null}
          </DetailField>
        </FieldGrid>
      </DetailSection>
      <DetailSection title="Roles">
        <DetailField label="Local roles">
          {device.localRoles.length ? (
            <Group gap={4}>
              {device.localRoles.map((role) => (
                <Badge key={role} variant="light">
                  {enumText(role)}
                </Badge>
              ))}
            </Group>
          ) : null}
        </DetailField>
        <PromoteControl
          noun="device"
          name={device.title}
          roles={deviceRoles}
          current={device.localRoles}
          promote={(role) => promote.mutateAsync({ id: device.id, role })}
        />
      </DetailSection>
      <DetailSection title="Relations">
        <FieldGrid>
          <DetailField label="Workstation">
            {device.workstation ? <RecordLink resource="workstations" record={device.workstation} /> : null}
          </DetailField>
          <DetailField label="Assigned user">
            {device.assignedUser ? <RecordLink resource="users" record={device.assignedUser} /> : null}
          </DetailField>
          <DetailField label="Command center">
            {device.commandCenter ? (
              <RecordLink resource="command-centers" record={device.commandCenter} />
            ) : null}
          </DetailField>
          <DetailField label="IoT devices" wide>
            <RecordLinks resource="iot-devices" records={device.iotDevices} />
          </DetailField>
        </FieldGrid>
      </DetailSection>
      <DeviceCharts deviceId={device.id} />
      <RecentStats deviceId={device.id} />
      <DeviceJobsSection deviceId={device.id} />
    </>
  );
}

export function DeviceDetail({ id }: { id: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const created = (location.state as { created?: DeviceCreated } | null)?.created;
  const [issued, setIssued] = useState<string | null>(null);
  const rekey = useRekeyDevice();
  const token = issued ?? (created?.id === id ? created.token : null);
  const forget = () => {
    setIssued(null);
    if (created) void navigate(location.pathname, { replace: true, state: null });
  };
  const askRekey = (device: Device) =>
    modals.openConfirmModal({
      title: 'Issue a new device token?',
      children: (
        <Text size="sm">{`The current token of “${device.title}” stops working at once; the agent needs the new one.`}</Text>
      ),
      labels: { confirm: 'Issue a new token', cancel: 'Cancel' },
      confirmProps: { color: 'orange' },
      onConfirm: () => rekey.mutate(device.id, { onSuccess: (answer) => setIssued(answer.token) }),
    });
  return (
    <ResourceDetail
      resource={deviceResource}
      id={id}
      actions={(device) => (
        <Button variant="default" onClick={() => askRekey(device)} loading={rekey.isPending}>
          New token
        </Button>
      )}
    >
      {(device) => (
        <>
          {token ? <DeviceTokenNotice token={token} onDone={forget} /> : null}
          <DeviceSections device={device} />
        </>
      )}
    </ResourceDetail>
  );
}
