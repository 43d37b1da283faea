// A prescription's page: status, parties (linked), addresses, content, receipts (with the signed document's
// download) and history.
import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { availableActions } from '@careplane/shared/prescriptions/prescription-actors';
import { formatDateTime } from '@careplane/shared/common/formats';
import { addressLine, shortId, textOf } from '@careplane/shared/common/record-labels';
import {
  prescriptionLockedStatuses,
  type Prescription,
} from '@careplane/shared/prescriptions/prescriptions.contract';
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
import { useOnline } from '@/lib/offline/online.ts';
import { offlineTexts } from '@/lib/offline/texts.ts';
import { useKeptActionsOf } from '@/lib/offline/use-outbox.ts';
import { useDownloadSignedDocument } from '../api/prescriptions.queries.ts';
import { prescriptionResource } from '../prescriptions.resource.ts';
import { notify } from '@/lib/notify.ts';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { specTexts } from '@/lib/i18n/spec-texts.ts';

/** Spec §8. */
export const DOWNLOAD_ERROR = specTexts.couldNotDownloadPrescription;

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
  const { t } = useTranslation('prescriptions');
  const download = useDownloadSignedDocument();
  if (!document) return <DetailField label={label} />;
  return (
    <DetailField label={label}>
      <Group gap="xs">
        <Text size="sm">
          {document.isSigned === false
            ? t('admin.detail.documentNotSigned', { id: shortId(document.id) })
            : t('admin.detail.document', { id: shortId(document.id) })}
        </Text>
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
          {t('admin.detail.download')}
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

/**
 * The custody actions the admin may take now (every action the status allows), beside Edit and Delete. While this
 * device keeps an action for the prescription, that action instead, as on the areas' cards: another one would be
 * taken on a status the prescription no longer has once the kept one is sent (decision 093).
 */
function CustodyActions({ prescription }: { prescription: Prescription }) {
  const viewer = useQuery(custodyQueries.viewer());
  const client = useQueryClient();
  const kept = useKeptActionsOf(prescription.id);
  const online = useOnline();
  if (kept.length > 0) {
    return kept.map((entry) => (
      <Badge key={entry.key} color="yellow" variant="light" size="lg" data-testid="kept-action">
        {offlineTexts.queued(entry.label, online)}
      </Badge>
    ));
  }
  if (!viewer.data) return null;
  return availableActions(prescription, viewer.data).map((action) => (
    <ActionButton
      key={`${action}-${prescription.status}`}
      id={prescription.id}
      action={action}
      status={prescription.status}
      onChanged={() => invalidateResource(client, 'prescriptions')}
    />
  ));
}

export function PrescriptionDetail({ id }: { id: string }) {
  const { t } = useTranslation('prescriptions');
  const yesNo = (value: boolean | null | undefined) =>
    value === true ? t('admin.detail.yes') : value === false ? t('admin.detail.no') : '';
  return (
    <ResourceDetail
      resource={prescriptionResource}
      id={id}
      actions={(prescription) => <CustodyActions prescription={prescription} />}
      // Once picked up it is the custody record its receipts point to: kept (decision 012).
      deletable={(prescription) => !prescriptionLockedStatuses.includes(prescription.status)}
      subtitle={(prescription) => (
        <Badge color={statusColors[prescription.status] ?? 'gray'} variant="light">
          {enumLabel('prescriptionStatus', prescription.status)}
        </Badge>
      )}
    >
      {(prescription) => (
        <>
          <DetailSection title={t('admin.detail.parties')}>
            <FieldGrid>
              <DetailField label={t('admin.fields.issuer')}>
                {prescription.issuer ? <RecordLink resource="users" record={prescription.issuer} /> : null}
              </DetailField>
              <DetailField label={t('admin.fields.recipient')}>
                {prescription.recipient ? (
                  <RecordLink resource="users" record={prescription.recipient} />
                ) : null}
              </DetailField>
              <DetailField label={t('admin.fields.supplier')}>
                {prescription.supplier ? (
                  <RecordLink resource="service-providers" record={prescription.supplier} />
                ) : null}
              </DetailField>
              <DetailField label={t('admin.fields.pickupByNurse')}>
                {yesNo(prescription.pickupByNurse)}
              </DetailField>
              <DetailField label={t('admin.fields.nurse')}>
                {prescription.nurse ? <RecordLink resource="users" record={prescription.nurse} /> : null}
              </DetailField>
              <DetailField label={t('admin.fields.shipper')}>
                {prescription.shipper ? (
                  <RecordLink resource="service-providers" record={prescription.shipper} />
                ) : null}
              </DetailField>
              <DetailField label={t('admin.fields.driver')}>
                {prescription.shipperDriver ? (
                  <RecordLink resource="users" record={prescription.shipperDriver} />
                ) : null}
              </DetailField>
              <DetailField label={t('admin.detail.created')}>
                {formatDateTime(prescription.createdAt)}
              </DetailField>
              <DetailField label={t('admin.detail.createdBy')}>
                {prescription.createdByUser ? (
                  <RecordLink resource="users" record={prescription.createdByUser} />
                ) : null}
              </DetailField>
            </FieldGrid>
          </DetailSection>
          <DetailSection title={t('admin.detail.content')}>
            <Table.ScrollContainer minWidth={640}>
              <Table striped verticalSpacing="xs" aria-label={t('admin.detail.content')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('admin.fields.item')}</Table.Th>
                    <Table.Th>{t('admin.fields.strength')}</Table.Th>
                    <Table.Th>{t('admin.fields.form')}</Table.Th>
                    <Table.Th>{t('admin.fields.quantity')}</Table.Th>
                    <Table.Th>{t('admin.fields.dosage')}</Table.Th>
                    <Table.Th>{t('admin.fields.notes')}</Table.Th>
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
          <DetailSection title={t('admin.detail.addressesAndReceipts')}>
            <FieldGrid>
              <DetailField label={t('admin.fields.pickupAddress')}>
                <Address value={prescription.pickupAddress} />
              </DetailField>
              <DetailField label={t('admin.fields.deliveryAddress')}>
                <Address value={prescription.deliveryAddress} />
              </DetailField>
              <DetailField label={t('admin.detail.version')}>{prescription.version}</DetailField>
              <Receipt label={t('admin.detail.issuerReceipt')} document={prescription.issuerReceipt} />
              <Receipt label={t('admin.detail.pickupReceipt')} document={prescription.pickupReceipt} />
            </FieldGrid>
          </DetailSection>
        </>
      )}
    </ResourceDetail>
  );
}
