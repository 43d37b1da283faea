// An IoT device's page: identity, connection, trust, data types, its client devices and user, the last
// data submission, a readings chart and its history.
import { Badge, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatDateTime } from '@careplane/shared/common/formats';
import { enumText, yesNo } from '@careplane/shared/common/record-labels';
import {
  DetailField,
  DetailSection,
  FieldGrid,
  JsonValue,
  RecordLink,
  RecordLinks,
} from '@/lib/resource-kit/detail/detail-parts.tsx';
import { ResourceDetail } from '@/lib/resource-kit/detail/resource-detail.tsx';
import { iotDeviceResource } from '../iot.resource.ts';
import { LastSubmission, ReadingsChart } from './iot-readings.tsx';

/** `related`: sections the app adds below (the device's alerts). */
export function IotDeviceDetail({ id, related }: { id: string; related?: ReactNode }) {
  return (
    <ResourceDetail resource={iotDeviceResource} id={id}>
      {(device) => (
        <>
          <DetailSection title="IoT device">
            <FieldGrid>
              <DetailField label="Hardware identifier">{device.hardwareIdentifier}</DetailField>
              <DetailField label="Model">{device.model}</DetailField>
              <DetailField label="Device identifier">{device.deviceIdentifier}</DetailField>
              <DetailField label="Connection type">{enumText(device.connectionType)}</DetailField>
              <DetailField label="Trust level">{enumText(device.trustLevel)}</DetailField>
              <DetailField label="Several client devices allowed">
                {yesNo(device.allowMultipleDeviceRelationships)}
              </DetailField>
              <DetailField label="Supported data types" wide>
                {device.supportedDataTypes.length ? (
                  <Group gap={4}>
                    {device.supportedDataTypes.map((type) => (
                      <Badge key={type} variant="light" tt="none">
                        {enumText(type)}
                      </Badge>
                    ))}
                  </Group>
                ) : null}
              </DetailField>
              <DetailField label="Created">{formatDateTime(device.createdAt)}</DetailField>
              <DetailField label="Updated">{formatDateTime(device.updatedAt)}</DetailField>
              <DetailField label="Connection details" wide>
                <JsonValue value={device.connectionMeta} />
              </DetailField>
            </FieldGrid>
          </DetailSection>
          <DetailSection title="Relations">
            <FieldGrid>
              <DetailField label="Assigned user">
                {device.assignedUser ? <RecordLink resource="users" record={device.assignedUser} /> : null}
              </DetailField>
              <DetailField label="Client devices">
                <RecordLinks resource="devices" records={device.devices} />
              </DetailField>
              <DetailField label="Created by device">
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
