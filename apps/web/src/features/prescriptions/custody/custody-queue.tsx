// The queues of the pharmacy and prescriptions areas (decisions §5): the prescriptions of one tab as cards
// (phone first), each with the actions this user may take now (derived from the shared transition table and
// who-may rule) and its detail on demand. The list refreshes after every action and on its own every few seconds.
import { Alert, Anchor, Button, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { paths } from '@/config/paths.ts';
import { availableActions } from '@careplane/shared/prescriptions/prescription-actors';
import type { PrescriptionViewerAnswer } from '@careplane/shared/prescriptions/prescriptions.contract';
import { useQuery } from '@tanstack/react-query';
import { areasOf } from '@/lib/areas.ts';
import { useSession } from '@/lib/session.ts';
import { custodyQueries } from '../api/custody.ts';
import { CustodyCard } from './custody-card.tsx';
import { useTabsItems, type CustodyTab } from './custody-lists.ts';

export type { CustodyTab } from './custody-lists.ts';

/** The tabs where nurses and couriers find what they carry: whoever carries nothing finds them always empty. */
const carriersTab = (tab: CustodyTab) =>
  tab.area === 'prescriptions' && (tab.tab === 'waiting' || tab.tab === 'picked-up');

/**
 * An empty tab. A patient or a doctor, who carry nothing, read why Waiting and Picked-up stay empty for them and
 * where their own prescriptions are, instead of a list that never fills.
 */
function Empty({ tab, viewer }: { tab: CustodyTab; viewer: PrescriptionViewerAnswer }) {
  const { t } = useTranslation('prescriptions');
  const user = useSession((state) => state.user);
  const carries = viewer.isAdmin || viewer.localRoles.some((role) => role === 'nurse' || role === 'courier');
  if (!carriersTab(tab) || carries) return <Text>{t('queue.empty')}</Text>;
  const own = areasOf(user).filter((area) => area.key === 'mine' || area.key === 'written');
  return (
    <Stack gap="xs">
      <Text>{t('queue.notCarrier')}</Text>
      {own.map((area) => (
        <Anchor key={area.key} component={Link} to={area.to}>
          {area.link}
        </Anchor>
      ))}
    </Stack>
  );
}

function Queue({ tab, viewer }: { tab: CustodyTab; viewer: PrescriptionViewerAnswer }) {
  const { t } = useTranslation('prescriptions');
  const { id } = useParams();
  const [selected, setSelected] = useState<string | null>(null);
  const [list] = useTabsItems([tab], id);
  if (!list || list.state === 'loading') return <Loader role="status" aria-label={t('queue.loading')} />;
  if (list.state === 'no-pharmacy') return <Alert color="yellow">{t('queue.noPharmacy')}</Alert>;
  if (list.state === 'not-employer') {
    const own = tab.area === 'pharmacy' ? paths.pharmacy.waiting.to() : paths.prescriptions.waiting.to();
    return (
      <Alert color="yellow" title={t(`queue.notEmployer.${tab.area}`)}>
        <Anchor component={Link} to={own}>
          {t(`queue.notEmployer.own.${tab.area}`)}
        </Anchor>
      </Alert>
    );
  }
  if (list.state === 'failed') return <Alert color="red">{list.message}</Alert>;
  const mine = tab.area === 'prescriptions' && tab.tab === 'mine';
  return (
    <Stack>
      {list.pharmacyTitle ? <Text c="dimmed">{list.pharmacyTitle}</Text> : null}
      {list.items.length === 0 ? (
        <Empty tab={tab} viewer={viewer} />
      ) : (
        <SimpleGrid
          component="ul"
          aria-label={t(`tabs.${tab.tab}`)}
          cols={{ base: 1, md: 2, xl: 3 }}
          spacing="sm"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {list.items.map((item) => (
            <CustodyCard
              key={item.id}
              prescription={item}
              actionsFrom={(status) => (mine ? [] : availableActions({ ...item, status }, viewer))}
              mine={mine}
              open={item.id === selected}
              onToggle={() => setSelected(item.id === selected ? null : item.id)}
            />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

export function CustodyQueue(tab: CustodyTab) {
  const { t } = useTranslation('prescriptions');
  const viewer = useQuery(custodyQueries.viewer());
  return (
    <Stack>
      <Title order={1} size="h2">
        {t(`tabs.${tab.tab}`)}
      </Title>
      {viewer.isPending ? <Loader role="status" aria-label={t('queue.loadingViewer')} /> : null}
      {viewer.isError ? <Alert color="red">{viewer.error.message}</Alert> : null}
      {viewer.data && tab.tab === 'written' && viewer.data.localRoles.includes('doctor') ? (
        <Group>
          <Button component={Link} to={paths.prescriptions.write.to()}>
            {t('write.open')}
          </Button>
        </Group>
      ) : null}
      {viewer.data ? <Queue tab={tab} viewer={viewer.data} /> : null}
    </Stack>
  );
}
