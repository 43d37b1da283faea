// A section of the command center's pages: a card with its title, its count and its own page numbers, the body
// that says why it has no rows when it has none, and the open alerts' section both pages show.
import { Badge, Card, Group, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import i18next from 'i18next';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Alert } from '@careplane/shared/alerts/alerts.contract';
import type { ListResponse } from '@careplane/shared/common/http';
import { PlainList } from '@/lib/plain-list.tsx';
import { LoadFailed } from '@/lib/resource-kit/load-failed.tsx';
import { PageControls } from '@/lib/resource-kit/list/page-controls.tsx';
import { VIEW_PAGE_SIZE } from './api/command-center-view.queries.ts';

/** One section: its title, how many records it holds, its rows, and its own page numbers. */
export function SectionCard({
  title,
  count,
  page,
  onPage,
  children,
}: {
  title: string;
  count: number | null | undefined;
  page: number;
  onPage: (page: number) => void;
  children: ReactNode;
}) {
  return (
    <Card withBorder component="section" aria-label={title}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {count === undefined || count === null ? null : <Badge variant="light">{count}</Badge>}
      </Group>
      {children}
      <PageControls total={count} pageSize={VIEW_PAGE_SIZE} page={page} onChange={onPage} />
    </Card>
  );
}

/**
 * A section's rows, else why there are none: a read that failed says so (offline, out of reach, refused) with a
 * button to ask again, above the rows last loaded if there are any; "loading", or the section's empty text, only
 * when the read has answered.
 */
export function SectionBody<Item>({
  title,
  query,
  empty,
  children,
}: {
  title: string;
  query: UseQueryResult<{ items: Item[] }>;
  empty: string;
  children: (items: Item[]) => ReactNode;
}) {
  const { t } = useTranslation('command-centers');
  const items = query.data?.items ?? [];
  return (
    <>
      {query.isError ? (
        <LoadFailed things={title} error={query.error} onRetry={() => void query.refetch()} />
      ) : null}
      {items.length ? (
        children(items)
      ) : query.isError ? null : query.fetchStatus === 'paused' ? (
        // Offline with nothing loaded yet: the read waits for the network and asks again by itself.
        <Text c="dimmed" size="sm" role="status">
          {i18next.t('kit:network.offline')}
        </Text>
      ) : (
        <Text c="dimmed" size="sm">
          {query.isPending ? t('view.loading') : empty}
        </Text>
      )}
    </>
  );
}

/** The open alerts of a page, each drawn by `alertItem` (the alerts feature's entry, composed in by the app). */
export function OpenAlertsSection({
  query,
  page,
  onPage,
  alertItem,
}: {
  query: UseQueryResult<ListResponse<Alert>>;
  page: number;
  onPage: (page: number) => void;
  alertItem: (alert: Alert) => ReactNode;
}) {
  const { t } = useTranslation('command-centers');
  return (
    <SectionCard title={t('view.openAlerts')} count={query.data?.total} page={page} onPage={onPage}>
      <SectionBody title={t('view.openAlerts')} query={query} empty={t('view.noOpenAlerts')}>
        {(items) => (
          <PlainList gap="md">
            {items.map((alert) => (
              <Fragment key={alert.id}>{alertItem(alert)}</Fragment>
            ))}
          </PlainList>
        )}
      </SectionBody>
    </SectionCard>
  );
}
