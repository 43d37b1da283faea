// A prescription's page: status, parties (linked), addresses, content, receipts (with the signed document's
// download) and history.
import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { availableActions } from '@careplane/shared/prescriptions/prescription-actors';
import { formatDateTime } from '@careplane/shared/common/formats';
import { addressLine, enumText, shortId, textOf, yesNo } from '@careplane/shared/common/record-labels';
import type { Prescription } from '@careplane/shared/prescriptions/prescriptions.contract';
import {
  DetailField,
  DetailSection,
  FieldGrid,
  RecordLink,
} from '@/lib/resource-kit/detail/detail-parts.tsx';
import { ResourceDetail } from '@/lib/resource-kit/detail/resource-detail.tsx';
import { invalidateResource } from '@/lib/resource-kit/queries.ts';
import { custodyQueries } from '../api/custody.ts';
import { ActionButton } from '../custody/action-button.tsx';
import { useDownloadSignedDocument } from '../api/prescriptions.queries.ts';
import { prescriptionResource } from '../prescriptions.resource.ts';
import { notify } from '@/lib/notify.ts';

/** Spec §8. */
export const DOWNLOAD_ERROR = 'Could not download prescription.';

const statusColors: Record<string, string> = {
  new: 'gray',
  issued: 'blue',
  waiting: 'yellow',
  ready: 'cyan',
  picked_up: 'violet',
  delivered: 'teal',
  on_hold: 'orange',
  returned: 'red',
};

function Receipt({ label, document }: { label: string; document: Prescription['issuerReceipt'] }) {
  const download = useDownloadSignedDocument();
  if (!document) return <DetailField label={label} />;
  return (
    <DetailField label={label}>
      <Group gap="xs">
        <Text size="sm">{`Document ${shortId(document.id)}${document.isSigned === false ? ' (not signed)' : ''}`}</Text>
        <Button
          size="compact-xs"
          variant="light"
          loading={download.isPending}
          onClick={() =>
            download.mutate(document.id, {
              onError: (error) => notify({ color: 'red', title: DOWNLOAD_ERROR, message: error.message }),
            })
          }
        >
          Download signed document
        </Button>
      </Group>
    </DetailField>
  );
}

function Address({ value }: { value: Record<string, unknown> | null }) {
  if (!value) return null;
  const geo = value.geo as { lat?: number; lng?: number } | undefined;
  return (
    <Stack gap={0}>
      {textOf(value.title) ? (
        <Text size="sm" fw={600}>
          {textOf(value.title)}
        </Text>
      ) : null}
      <Text size="sm">{addressLine(value)}</Text>
      {geo?.lat !== undefined && geo.lng !== undefined ? (
        <Text size="xs" c="dimmed">{`${geo.lat}, ${geo.lng}`}</Text>
      ) : null}
    </Stack>
  );
}

/** The custody actions the admin may take now (every action the status allows), beside Edit and Delete. */
function CustodyActions({ prescription }: { prescription: Prescription }) {
  const viewer = useQuery(custodyQueries.viewer());
  const client = useQueryClient();
  if (!viewer.data) return null;
  return availableActions(prescription, viewer.data).map((action) => (
    <ActionButton
      key={`${action}-${prescription.status}`}
      id={prescription.id}
      action={action}
      onChanged={() => invalidateResource(client, 'prescriptions')}
    />
  ));
}

export function PrescriptionDetail({ id }: { id: string }) {
  return (
    <ResourceDetail
      resource={prescriptionResource}
      id={id}
      actions={(prescription) => <CustodyActions prescription={prescription} />}
      subtitle={(prescription) => (
        <Badge color={statusColors[prescription.status] ?? 'gray'} variant="light">
          {enumText(prescription.status)}
        </Badge>
      )}
    >
      {(prescription) => (
        <>
          <DetailSection title="Parties">
            <FieldGrid>
              <DetailField label="Issuer">
                {prescription.issuer ? <RecordLink resource="users" record={prescription.issuer} /> : null}
              </DetailField>
              <DetailField label="Recipient">
                {prescription.recipient ? (
                  <RecordLink resource="users" record={prescription.recipient} />
                ) : null}
              </DetailField>
              <DetailField label="Supplier">
                {prescription.supplier ? (
                  <RecordLink resource="service-providers" record={prescription.supplier} />
                ) : null}
              </DetailField>
              <DetailField label="Picked up by a nurse">{yesNo(prescription.pickupByNurse)}</DetailField>
              <DetailField label="Nurse">
                {prescription.nurse ? <RecordLink resource="users" record={prescription.nurse} /> : null}
              </DetailField>
              <DetailField label="Shipper">
                {prescription.shipper ? (
                  <RecordLink resource="service-providers" record={prescription.shipper} />
                ) : null}
              </DetailField>
              <DetailField label="Driver">
                {prescription.shipperDriver ? (
                  <RecordLink resource="users" record={prescription.shipperDriver} />
                ) : null}
              </DetailField>
              <DetailField label="Created">{formatDateTime(prescription.createdAt)}</DetailField>
              <DetailField label="Created by">
                {prescription.createdByUser ? (
                  <RecordLink resource="users" record={prescription.createdByUser} />
                ) : null}
              </DetailField>
            </FieldGrid>
          </DetailSection>
          <DetailSection title="Content">
            <Table.ScrollContainer minWidth={640}>
              <Table striped verticalSpacing="xs" aria-label="Content">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Item</Table.Th>
                    <Table.Th>Strength</Table.Th>
                    <Table.Th>Form</Table.Th>
                    <Table.Th>Quantity</Table.Th>
                    <Table.Th>Dosage</Table.Th>
                    <Table.Th>Notes</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {prescription.content.map((item, index) => (
                    <Table.Tr key={index}>
                      <Table.Td fw={600}>{textOf(item.name)}</Table.Td>
                      <Table.Td>{textOf(item.strength) || '—'}</Table.Td>
                      <Table.Td>{textOf(item.form) || '—'}</Table.Td>
                      <Table.Td>
                        {[textOf(item.quantity), textOf(item.unit)].filter(Boolean).join(' ')}
                      </Table.Td>
                      <Table.Td>{textOf(item.dosage) || '—'}</Table.Td>
                      <Table.Td>{textOf(item.notes) || '—'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </DetailSection>
          <DetailSection title="Addresses and receipts">
            <FieldGrid>
              <DetailField label="Pickup address">
                <Address value={prescription.pickupAddress} />
              </DetailField>
              <DetailField label="Delivery address">
                <Address value={prescription.deliveryAddress} />
              </DetailField>
              <DetailField label="Version">{prescription.version}</DetailField>
              <Receipt label="Issuer receipt" document={prescription.issuerReceipt} />
              <Receipt label="Pickup receipt" document={prescription.pickupReceipt} />
            </FieldGrid>
          </DetailSection>
        </>
      )}
    </ResourceDetail>
  );
}
