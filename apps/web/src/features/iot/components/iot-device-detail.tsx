// An IoT device's page: identity, connection, trust, data types, its client devices and user, the last
// data submission, a readings chart and its history.
import { Badge, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@careplane/shared/common/formats';
import {
  DetailField,
  DetailSection,
  FieldGrid,
  JsonValue,
  RecordLink,
  RecordLinks,
} from '@/lib/resource-kit/detail/detail-parts.tsx';
import { ResourceDetail } from '@/lib/resource-kit/detail/resource-detail.tsx';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { iotDeviceResource } from '../iot.resource.ts';
import { LastSubmission, ReadingsChart } from './iot-readings.tsx';

/** `related`: sections the app adds below (the device's alerts). */
export function IotDeviceDetail({ id, related }: { id: string; related?: ReactNode }) {
  const { t } = useTranslation('iot');
  const yesNo = (value: boolean | null | undefined) =>
    value === true ? t('detail.yes') : value === false ? t('detail.no') : '';
  return (
    <ResourceDetail resource={iotDeviceResource} id={id}>
      {(device) => (
        <>
          <DetailSection title={t('detail.section')}>
            <FieldGrid>
              <DetailField label={t('detail.hardwareIdentifier')}>{device.hardwareIdentifier}</DetailField>
              <DetailField label={t('detail.model')}>{device.model}</DetailField>
              <DetailField label={t('detail.deviceIdentifier')}>{device.deviceIdentifier}</DetailField>
              <DetailField label={t('detail.connectionType')}>
                {enumLabel('connectionType', device.connectionType)}
              </DetailField>
              <DetailField label={t('detail.trustLevel')}>
                {enumLabel('trustLevel', device.trustLevel)}
              </DetailField>
              <DetailField label={t('detail.severalAllowed')}>
                {yesNo(device.allowMultipleDeviceRelationships)}
              </DetailField>
              <DetailField label={t('detail.supportedDataTypes')} wide>
                {device.supportedDataTypes.length ? (
                  <Group gap={4}>
                    {device.supportedDataTypes.map((type) => (
                      <Badge key={type} variant="light" tt="none">
                        {enumLabel('iotDataType', type)}
                      </Badge>
                    ))}
                  </Group>
                ) : null}
              </DetailField>
              <DetailField label={t('detail.created')}>{formatDateTime(device.createdAt)}</DetailField>
              <DetailField label={t('detail.updated')}>{formatDateTime(device.updatedAt)}</DetailField>
              <DetailField label={t('detail.connectionDetails')} wide>
                <JsonValue value={device.connectionMeta} />
              </DetailField>
            </FieldGrid>
          </DetailSection>
          <DetailSection title={t('detail.relations')}>
            <FieldGrid>
              <DetailField label={t('detail.assignedUser')}>
                {device.assignedUser ? <RecordLink resource="users" record={device.assignedUser} /> : null}
              </DetailField>
              <DetailField label={t('detail.clientDevices')}>
                <RecordLinks resource="devices" records={device.devices} />
              </DetailField>
              <DetailField label={t('detail.createdByDevice')}>
                {device.createdByDevice ? (
                  <RecordLink resource="devices" record={device.createdByDevice} />
                ) : null}
              </DetailField>
            </FieldGrid>
          </DetailSection>
          <LastSubmission deviceId={device.id} />
          <ReadingsChart device={device} />
          {related}
        </>
      )}
    </ResourceDetail>
  );
}
