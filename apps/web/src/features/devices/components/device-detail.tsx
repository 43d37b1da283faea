// A device's page: what it is, its roles (with promotion), workstation, user, IoT devices, command center,
// charts, recent stats, jobs, the token shown once after creation or re-keying, and its history.
import { Badge, Button, Group } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { deviceRoles } from '@careplane/shared/common/enums';
import { formatDateTime } from '@careplane/shared/common/formats';
import { addressLine, textOf } from '@careplane/shared/common/record-labels';
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
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { DeviceJobsSection } from './device-jobs-section.tsx';
import { DeviceCharts, RecentStats } from './device-stats.tsx';
import { DeviceTokenNotice } from './device-token-notice.tsx';

function DeviceSections({ device }: { device: Device }) {
  const promote = usePromoteDevice();
  const { t } = useTranslation('devices');
  const location = device.location;
  const yesNo = (value: boolean | null | undefined) =>
    value === true ? t('detail.yes') : value === false ? t('detail.no') : '';
  return (
    <>
      <DetailSection title={t('detail.device')}>
        <FieldGrid>
          <DetailField label={t('detail.title')}>{device.title}</DetailField>
          <DetailField label={t('detail.role')}>{enumLabel('deviceRole', device.role)}</DetailField>
          <DetailField label={t('detail.enabled')}>{yesNo(device.isEnabled)}</DetailField>
          <DetailField label={t('detail.location')}>
            {[textOf(location?.title), addressLine(location?.address as Record<string, unknown> | undefined)]
              .filter(Boolean)
              .join(' · ')}
          </DetailField>
          <DetailField label={t('detail.directions')}>{textOf(location?.description)}</DetailField>
          <DetailField label={t('detail.created')}>{formatDateTime(device.createdAt)}</DetailField>
          <DetailField label={t('detail.updated')}>{formatDateTime(device.updatedAt)}</DetailField>
          <DetailField label={t('detail.createdBy')}>
            {device.createdByUser ? <RecordLink resource="users" record={device.createdByUser} /> : null}
          </DetailField>
        </FieldGrid>
      </DetailSection>
      <DetailSection title={t('detail.roles')}>
        <DetailField label={t('detail.localRoles')}>
          {device.localRoles.length ? (
            <Group gap={4}>
              {device.localRoles.map((role) => (
                <Badge key={role} variant="light">
                  {enumLabel('deviceRole', role)}
                </Badge>
              ))}
            </Group>
          ) : null}
        </DetailField>
        <PromoteControl
          noun={t('device.noun')}
          name={device.title}
          roles={deviceRoles}
          current={device.localRoles}
          roleLabel={(role) => enumLabel('deviceRole', role)}
          promote={(role) => promote.mutateAsync({ id: device.id, role })}
        />
      </DetailSection>
      <DetailSection title={t('detail.relations')}>
        <FieldGrid>
          <DetailField label={t('detail.workstation')}>
            {device.workstation ? <RecordLink resource="workstations" record={device.workstation} /> : null}
          </DetailField>
          <DetailField label={t('detail.assignedUser')}>
            {device.assignedUser ? <RecordLink resource="users" record={device.assignedUser} /> : null}
          </DetailField>
          <DetailField label={t('detail.commandCenter')}>
            {device.commandCenter ? (
              <RecordLink resource="command-centers" record={device.commandCenter} />
            ) : null}
          </DetailField>
          <DetailField label={t('detail.iotDevices')} wide>
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
  const { t } = useTranslation('devices');
  const token = issued ?? (created?.id === id ? created.token : null);
  const forget = () => {
    setIssued(null);
    if (created) void navigate(location.pathname, { replace: true, state: null });
  };
  const askRekey = (device: Device) =>
    modals.openConfirmModal({
      title: t('detail.rekeyTitle'),
      children: <Text size="sm">{t('detail.rekeyText', { title: device.title })}</Text>,
      labels: { confirm: t('detail.rekeyConfirm'), cancel: t('detail.cancel') },
      confirmProps: { color: 'orange' },
      onConfirm: () => rekey.mutate(device.id, { onSuccess: (answer) => setIssued(answer.token) }),
    });
  return (
    <ResourceDetail
      resource={deviceResource}
      id={id}
      actions={(device) => (
        <Button variant="default" onClick={() => askRekey(device)} loading={rekey.isPending}>
          {t('detail.newToken')}
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
