// The queues of the pharmacy and prescriptions areas (decisions §5): the prescriptions of one tab, each with the
// actions this user may take now (derived from the shared transition table and who-may rule), and the
// selected one's detail. The list refreshes after every action and on its own every few seconds.
import { Alert, Badge, Group, Loader, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import type { PrescriptionStatus } from '@careplane/shared/common/enums';
import { enumText, personName, textOf } from '@careplane/shared/common/record-labels';
import {
  availableActions,
  pickerOf,
  type PrescriptionViewer,
} from '@careplane/shared/prescriptions/prescription-actors';
import { prescriptionContentText } from '@careplane/shared/prescriptions/prescriptions.columns';
import type {
  Prescription,
  PrescriptionViewerAnswer,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { custodyQueries } from '../api/custody.ts';
import { ActionButton } from './action-button.tsx';
import { CustodyDetail } from './custody-detail.tsx';

export type CustodyTab =
  | { area: 'pharmacy'; tab: 'waiting' | 'ready' | 'picked-up' }
  | { area: 'prescriptions'; tab: 'waiting' | 'picked-up' };

const titles = {
  waiting: 'Waiting prescriptions',
  ready: 'Ready prescriptions',
  'picked-up': 'Picked-up prescriptions',
};

/** Decisions §5: pharmacy Waiting = issued and waiting (with what is on hold or returned, to resume or restock). */
function statusesOf({ area, tab }: CustodyTab): PrescriptionStatus[] {
  if (area === 'pharmacy') {
    if (tab === 'waiting') return ['issued', 'waiting', 'on_hold', 'returned'];
    return tab === 'ready' ? ['ready'] : ['picked_up'];
  }
  return tab === 'waiting' ? ['ready'] : ['picked_up'];
}

const viewerOf = (answer: PrescriptionViewerAnswer): PrescriptionViewer => answer;

/** The prescriptions area shows what waits for this user to pick up, and what this user picked up. */
function keep(tab: CustodyTab, prescription: Prescription, viewer: PrescriptionViewer) {
  if (tab.area === 'pharmacy' || viewer.isAdmin) return true;
  const parties = { ...prescription, status: prescription.status };
  return tab.tab === 'waiting'
    ? availableActions(parties, viewer).includes('pickup')
    : pickerOf(parties) === viewer.userId;
}

function Queue({ tab, viewer }: { tab: CustodyTab; viewer: PrescriptionViewerAnswer }) {
  const { id } = useParams();
  const [selected, setSelected] = useState<string | null>(null);
  const pharmacy =
    tab.area === 'pharmacy'
      ? (id ?? viewer.employers.find((employer) => employer.type === 'pharmacy')?.id)
      : undefined;
  const provider =
    tab.area === 'pharmacy'
      ? pharmacy
        ? { path: 'supplier.id' as const, id: pharmacy }
        : undefined
      : id
        ? { path: 'shipper.id' as const, id }
        : undefined;
  const queue = useQuery(custodyQueries.queue(statusesOf(tab), provider));
  if (tab.area === 'pharmacy' && !pharmacy && !viewer.isAdmin) {
    return <Alert color="yellow">You are not employed by a pharmacy.</Alert>;
  }
  if (queue.isPending) return <Loader role="status" aria-label="Loading prescriptions" />;
  if (queue.isError) return <Alert color="red">{queue.error.message}</Alert>;
  const items = queue.data.items.filter((item) => keep(tab, item, viewerOf(viewer)));
  const current = items.find((item) => item.id === selected);
  const pharmacyTitle = viewer.employers.find((employer) => employer.id === pharmacy)?.title;
  return (
    <Stack>
      {pharmacyTitle ? <Text c="dimmed">{pharmacyTitle}</Text> : null}
      {items.length === 0 ? (
        <Text>No prescriptions here.</Text>
      ) : (
        <Table highlightOnHover aria-label={titles[tab.tab]}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Content</Table.Th>
              <Table.Th>Recipient</Table.Th>
              <Table.Th>Delivery city</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.id} aria-selected={item.id === selected}>
                <Table.Td>
                  <UnstyledButton onClick={() => setSelected(item.id === selected ? null : item.id)}>
                    <Text size="sm" td="underline">
                      {prescriptionContentText(item)}
                    </Text>
                  </UnstyledButton>
                </Table.Td>
                <Table.Td>{personName(item.recipient)}</Table.Td>
                <Table.Td>{textOf(item.deliveryAddress?.city)}</Table.Td>
                <Table.Td>
                  <Badge variant="light">{enumText(item.status)}</Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" align="flex-start">
                    {availableActions({ ...item }, viewerOf(viewer)).map((action) => (
                      <ActionButton key={`${action}-${item.status}`} id={item.id} action={action} />
                    ))}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {current ? <CustodyDetail prescription={current} /> : null}
    </Stack>
  );
}

export function CustodyQueue(tab: CustodyTab) {
  const viewer = useQuery(custodyQueries.viewer());
  return (
    <Stack>
      <Title order={2}>{titles[tab.tab]}</Title>
      {viewer.isPending ? <Loader role="status" aria-label="Loading" /> : null}
      {viewer.isError ? <Alert color="red">{viewer.error.message}</Alert> : null}
      {viewer.data ? <Queue tab={tab} viewer={viewer.data} /> : null}
    </Stack>
  );
}
