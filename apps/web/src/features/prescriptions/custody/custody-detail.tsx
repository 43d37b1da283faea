// A prescription in an area: content, addresses, parties, receipts and history.
import { Alert, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { formatDateTime } from '@careplane/shared/common/formats';
import { addressLine, enumText, personName, textOf, titleOf } from '@careplane/shared/common/record-labels';
import type {
  PrescriptionReceipt,
  Prescription,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { custodyQueries, downloadReceipt } from '../api/custody.ts';

/** Spec §8. */
export const RECEIPT_ERROR = 'Could not get prescription document.';

function ReceiptButton({ id, receipt, label }: { id: string; receipt: PrescriptionReceipt; label: string }) {
  const download = useMutation({ mutationFn: () => downloadReceipt(id, receipt) });
  return (
    <Stack gap={2}>
      <Button size="xs" variant="light" loading={download.isPending} onClick={() => download.mutate()}>
        {label}
      </Button>
      {download.isError ? (
        <Text size="xs" c="red" role="alert">
          {RECEIPT_ERROR}
        </Text>
      ) : null}
    </Stack>
  );
}

export function CustodyDetail({ prescription }: { prescription: Prescription }) {
  const history = useQuery(custodyQueries.history(prescription.id));
  const parties: [string, string][] = [
    ['Issuer', personName(prescription.issuer)],
    ['Recipient', personName(prescription.recipient)],
    ['Supplier', titleOf(prescription.supplier)],
    prescription.pickupByNurse
      ? ['Nurse', personName(prescription.nurse)]
      : ['Shipper', titleOf(prescription.shipper)],
    ['Driver', personName(prescription.shipperDriver)],
  ];
  return (
    <Paper withBorder p="md" aria-label="Prescription detail" component="section">
      <Stack gap="sm">
        <Title order={3} size="h4">{`Prescription · ${enumText(prescription.status)}`}</Title>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Item</Table.Th>
              <Table.Th>Quantity</Table.Th>
              <Table.Th>Dosage</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {prescription.content.map((item, index) => (
              <Table.Tr key={index}>
                <Table.Td>
                  {[textOf(item.name), textOf(item.strength), textOf(item.form)].filter(Boolean).join(' ')}
                </Table.Td>
                <Table.Td>{[textOf(item.quantity), textOf(item.unit)].filter(Boolean).join(' ')}</Table.Td>
                <Table.Td>{textOf(item.dosage)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group align="flex-start" grow>
          <Stack gap={0}>
            <Text size="sm" fw={600}>
              Pickup address
            </Text>
            <Text size="sm">{addressLine(prescription.pickupAddress) || '—'}</Text>
          </Stack>
          <Stack gap={0}>
            <Text size="sm" fw={600}>
              Delivery address
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
            <ReceiptButton id={prescription.id} receipt="issuer" label="Signed prescription" />
          ) : null}
          {prescription.pickupReceiptId ? (
            <ReceiptButton id={prescription.id} receipt="pickup" label="Pickup receipt" />
          ) : null}
        </Group>
        <Title order={4} size="h5">
          History
        </Title>
        {history.isError ? <Alert color="red">{history.error.message}</Alert> : null}
        <Stack gap={2} component="ol" aria-label="History" style={{ listStyle: 'none', padding: 0 }}>
          {history.data?.items.map((entry, index) => (
            <Text size="sm" component="li" key={index}>
              {`${formatDateTime(entry.at)} · ${entry.action}${entry.actor ? ` · ${entry.actor}` : ''}`}
            </Text>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
