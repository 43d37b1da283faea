// A prescription in an area: content, addresses, parties, receipts and history.
import { Alert, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { prescriptionStatusLabel } from '@/lib/i18n/enum-labels.ts';
import { addressLine, personName, textOf, titleOf } from '@careplane/shared/common/record-labels';
import type {
  PrescriptionReceipt,
  Prescription,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { NetworkError } from '@/lib/api-client.ts';
import { PHONE_SCREEN } from '@/lib/screen-widths.ts';
import { specTexts } from '@/lib/i18n/spec-texts.ts';
import { custodyQueries, downloadReceipt } from '../api/custody.ts';
import { historyEventText, historyReasonText, historyTimeText } from '../prescription-history.ts';

/** Spec §8, word for word in either language. */
export const RECEIPT_ERROR = specTexts.couldNotGetPrescriptionDocument;

const wrapAnywhere = { overflowWrap: 'anywhere', hyphens: 'auto' } as const;

function ReceiptButton({ id, receipt, label }: { id: string; receipt: PrescriptionReceipt; label: string }) {
  // Without a network the download fails at once and says so (the query client's actions never wait paused),
  // instead of downloading by itself when nobody expects it.
  const download = useMutation({ mutationFn: () => downloadReceipt(id, receipt) });
  return (
    <Stack gap={2}>
      <Button size="xs" variant="light" loading={download.isPending} onClick={() => download.mutate()}>
        {label}
      </Button>
      {download.isError ? (
        <Text size="xs" c="red" role="alert">
          {download.error instanceof NetworkError
            ? `${RECEIPT_ERROR} ${download.error.message}`
            : RECEIPT_ERROR}
        </Text>
      ) : null}
    </Stack>
  );
}

/** An item as the prescription's content holds it (read loosely: a newer server may add fields). */
type ContentItem = Prescription['content'][number];

/** What an item is, as the pharmacy reads it off the shelf: name, strength and form. */
const itemName = (item: ContentItem) =>
  [textOf(item.name), textOf(item.strength), textOf(item.form)].filter(Boolean).join(' ');
const itemQuantity = (item: ContentItem) =>
  [textOf(item.quantity), textOf(item.unit)].filter(Boolean).join(' ');

/**
 * The prescription's items. On a phone, three columns left the dosage a third of the card, and a long word of it
 * ("breathlessness") broke in the middle: there each item is a block, its name first, then its quantity and its
 * dosage across the card's width. Wider, a table.
 */
function Items({ content }: { content: ContentItem[] }) {
  const { t } = useTranslation('prescriptions');
  const phone = useMediaQuery(PHONE_SCREEN) === true;
  if (phone) {
    return (
      <Stack component="ul" gap="xs" p={0} m={0} aria-label={t('detail.items')} style={{ listStyle: 'none' }}>
        {content.map((item, index) => (
          <Stack component="li" key={index} gap={0} style={wrapAnywhere}>
            <Text size="sm" fw={600}>
              {itemName(item)}
            </Text>
            {[
              [t('detail.quantity'), itemQuantity(item)],
              [t('detail.dosage'), textOf(item.dosage)],
            ]
              .filter(([, value]) => value)
              .map(([label, value]) => (
                <Text size="sm" key={label}>
                  <Text span c="dimmed">{`${label}: `}</Text>
                  {value}
                </Text>
              ))}
          </Stack>
        ))}
      </Stack>
    );
  }
  return (
    // Fixed columns whose words wrap: in a narrow window the table keeps to the card's width.
    <Table
      layout="fixed"
      horizontalSpacing={6}
      styles={{ th: wrapAnywhere, td: wrapAnywhere }}
      aria-label={t('detail.items')}
    >
      <colgroup>
        <col style={{ width: '40%' }} />
        <col style={{ width: '27%' }} />
        <col style={{ width: '33%' }} />
      </colgroup>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('detail.item')}</Table.Th>
          <Table.Th>{t('detail.quantity')}</Table.Th>
          <Table.Th>{t('detail.dosage')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {content.map((item, index) => (
          <Table.Tr key={index}>
            <Table.Td>{itemName(item)}</Table.Td>
            <Table.Td>{itemQuantity(item)}</Table.Td>
            <Table.Td>{textOf(item.dosage)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function CustodyDetail({ prescription }: { prescription: Prescription }) {
  const { t } = useTranslation('prescriptions');
  const history = useQuery(custodyQueries.history(prescription.id));
  const status = prescriptionStatusLabel(prescription.status);
  const parties: [string, string][] = [
    [t('detail.issuer'), personName(prescription.issuer)],
    [t('detail.recipient'), personName(prescription.recipient)],
    [t('detail.supplier'), titleOf(prescription.supplier)],
    prescription.pickupByNurse
      ? [t('detail.nurse'), personName(prescription.nurse)]
      : [t('detail.shipper'), titleOf(prescription.shipper)],
    [t('detail.driver'), personName(prescription.shipperDriver)],
  ];
  return (
    <Paper withBorder p="md" aria-label={t('detail.label')} component="section">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('detail.title', { status })}
        </Title>
        <Items content={prescription.content} />
        <Group align="flex-start" grow>
          <Stack gap={0}>
            <Text size="sm" fw={600}>
              {t('detail.pickupAddress')}
            </Text>
            <Text size="sm">{addressLine(prescription.pickupAddress) || '—'}</Text>
          </Stack>
          <Stack gap={0}>
            <Text size="sm" fw={600}>
              {t('detail.deliveryAddress')}
            </Text>
            <Text size="sm">{addressLine(prescription.deliveryAddress) || '—'}</Text>
          </Stack>
        </Group>
        <Group gap="lg">
          {parties.map(([label, value]) => (
            <Text size="sm" key={label}>
              <Text span fw={600}>{`${label}: `}</Text>
              {value || '—'}
            </Text>
          ))}
        </Group>
        <Group>
          {prescription.issuerReceiptId ? (
            <ReceiptButton id={prescription.id} receipt="issuer" label={t('detail.signedPrescription')} />
          ) : null}
          {prescription.pickupReceiptId ? (
            <ReceiptButton id={prescription.id} receipt="pickup" label={t('detail.pickupReceipt')} />
          ) : null}
        </Group>
        <Title order={4} size="h5">
          {t('detail.history')}
        </Title>
        {history.isError ? <Alert color="red">{history.error.message}</Alert> : null}
        {!history.data && history.fetchStatus === 'paused' ? (
          <Text size="sm" c="dimmed" data-testid="history-offline">
            {history.failureReason?.message ?? i18next.t('kit:network.offline')}
          </Text>
        ) : null}
        {history.data?.items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {i18next.t('kit:history.empty')}
          </Text>
        ) : null}
        <Stack
          gap={2}
          component="ol"
          aria-label={t('detail.history')}
          style={{ listStyle: 'none', padding: 0 }}
        >
          {history.data?.items.map((entry, index) => (
            <Text size="sm" component="li" key={index}>
              {[
                historyTimeText(entry, t),
                historyEventText(entry.action, t),
                entry.actor,
                historyReasonText(entry),
              ]
                .filter(Boolean)
                .join(' · ')}
            </Text>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
