// The alerts of one user or IoT device, on its page: open ones first, each with its title, state, who
// acknowledged or closed it, and the actions of an open alert.
import { Alert as Notice, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PlainList } from '@/lib/plain-list.tsx';
import { DetailSection } from '@/lib/resource-kit/detail/detail-parts.tsx';
import { alertQueries, recordAlertsRequest } from '../api/alerts.queries.ts';
import { AlertEntry } from './alert-entry.tsx';

/** `filter`: `user.id~<id>` or `iotDevice.id~<id>`. */
export function RecordAlerts({ filter }: { filter: string }) {
  const alerts = useQuery(alertQueries.list(recordAlertsRequest(filter)));
  const { t } = useTranslation('alerts');
  return (
    <DetailSection
      title={alerts.data ? t('record.titleCount', { total: alerts.data.total }) : t('record.title')}
    >
      {alerts.isPending ? (
        <Loader size="sm" role="status" aria-label={t('page.loading')} />
      ) : alerts.isError ? (
        <Notice color="red" title={t('page.loadFailed')}>
          {alerts.error.message}
        </Notice>
      ) : alerts.data.items.length ? (
        <PlainList gap="sm" aria-label={t('page.list')}>
          {alerts.data.items.map((alert) => (
            <AlertEntry key={alert.id} alert={alert} />
          ))}
        </PlainList>
      ) : (
        <Text size="sm" c="dimmed">
          {t('record.none')}
        </Text>
      )}
    </DetailSection>
  );
}
