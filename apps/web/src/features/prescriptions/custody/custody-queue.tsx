// The queues of the pharmacy and prescriptions areas (decisions §5): the prescriptions of one tab, each with the
// actions this user may take now (derived from the shared transition table and who-may rule), and the
// selected one's detail. The list refreshes after every action and on its own every few seconds.
import { Alert, Badge, Group, Loader, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
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
  | { area: 'prescriptions'; tab: 'waiting' | 'picked-up' | 'written' | 'mine' };

const titles = {
  waiting: 'Waiting prescriptions',
  ready: 'Ready prescriptions',
  'picked-up': 'Picked-up prescriptions',
  written: 'Prescriptions you wrote',
  mine: 'Your prescriptions',
};

/** Decisions §5: pharmacy Waiting = issued and waiting (with what is on hold or returned, to resume or restock). */
function pharmacyStatuses(tab: 'waiting' | 'ready' | 'picked-up'): PrescriptionStatus[] {
  if (tab === 'waiting') return ['issued', 'waiting', 'on_hold', 'returned'];
  return tab === 'ready' ? ['ready'] : ['picked_up'];
}

const viewerOf = (answer: PrescriptionViewerAnswer): PrescriptionViewer => answer;
const isDoctor = (viewer: PrescriptionViewer) => viewer.localRoles.includes('doctor');

type Provider = { path: 'supplier.id' | 'shipper.id'; id: string };

/**
 * The list filters of a tab: one list each. The prescriptions area's Waiting tab is what waits for this user:
 * prescriptions ready to pick up and, for a doctor, the ones they wrote that wait to be issued.
 */
function listsOf(tab: CustodyTab, viewer: PrescriptionViewer, provider: Provider | undefined): string[][] {
  const me = viewer.userId ?? '';
  const by = provider ? [`${provider.path}~${provider.id}`] : [];
  if (tab.area === 'pharmacy') return [[`status~${pharmacyStatuses(tab.tab).join(',')}`, ...by]];
  switch (tab.tab) {
    case 'waiting':
      return [
        ['status~ready', ...by],
        ...(isDoctor(viewer) && !provider ? [['status~new', `issuer.id~${me}`]] : []),
      ];
    case 'picked-up':
      return [['status~picked_up', ...by]];
    case 'written':
      return [[`issuer.id~${me}`]];
    case 'mine':
      return [[`recipient.id~${me}`]];
  }
}

/** What a tab keeps of its lists: Waiting what the user can act on, Picked-up what the user picked up. */
function keep(tab: CustodyTab, prescription: Prescription, viewer: PrescriptionViewer) {
  if (tab.area === 'pharmacy' || viewer.isAdmin) return true;
  const parties = { ...prescription, status: prescription.status };
  switch (tab.tab) {
    case 'waiting':
      return availableActions(parties, viewer).some((action) => action === 'pickup' || action === 'issue');
    case 'picked-up':
      return pickerOf(parties) === viewer.userId;
    case 'written':
    case 'mine':
      return true;
  }
}

function Queue({ tab, viewer }: { tab: CustodyTab; viewer: PrescriptionViewerAnswer }) {
  const { id } = useParams();
  const [selected, setSelected] = useState<string | null>(null);
  const pharmacy =
    tab.area === 'pharmacy'
      ? (id ?? viewer.employers.find((employer) => employer.type === 'pharmacy')?.id)
      : undefined;
  const provider: Provider | undefined =
    tab.area === 'pharmacy'
      ? pharmacy
        ? { path: 'supplier.id', id: pharmacy }
        : undefined
      : id
        ? { path: 'shipper.id', id }
        : undefined;
  const lists = useQueries({
    queries: listsOf(tab, viewerOf(viewer), provider).map((filters) => custodyQueries.queue(filters)),
  });
  if (tab.area === 'pharmacy' && !pharmacy && !viewer.isAdmin) {
    return <Alert color="yellow">You are not employed by a pharmacy.</Alert>;
  }
  if (lists.some((list) => list.isPending)) {
    return <Loader role="status" aria-label="Loading prescriptions" />;
  }
  const failed = lists.find((list) => list.isError);
  if (failed?.error) return <Alert color="red">{failed.error.message}</Alert>;
  const byId = new Map(lists.flatMap((list) => list.data?.items ?? []).map((item) => [item.id, item]));
  const items = [...byId.values()]
    .filter((item) => keep(tab, item, viewerOf(viewer)))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const mine = tab.area === 'prescriptions' && tab.tab === 'mine';
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
              <Table.Th>{mine ? 'Prescribed by' : 'Recipient'}</Table.Th>
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
                <Table.Td>{personName(mine ? item.issuer : item.recipient)}</Table.Td>
                <Table.Td>{textOf(item.deliveryAddress?.city)}</Table.Td>
                <Table.Td>
                  <Badge variant="light">{enumText(item.status)}</Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" align="flex-start">
                    {(mine ? [] : availableActions({ ...item }, viewerOf(viewer))).map((action) => (
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
