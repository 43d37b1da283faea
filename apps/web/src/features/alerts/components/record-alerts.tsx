// The alerts of one user or IoT device, on its page: open ones first, each with its title, state, who
// acknowledged or closed it, and the actions of an open alert.
import { Alert as Notice, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DetailSection } from '@/lib/resource-kit/detail/detail-parts.tsx';
import { alertQueries, recordAlertsRequest } from '../api/alerts.queries.ts';
import { AlertEntry } from './alert-entry.tsx';

/** `filter`: `user.id~<id>` or `iotDevice.id~<id>`. */
export function RecordAlerts({ filter }: { filter: string }) {
  const alerts = useQuery(alertQueries.list(recordAlertsRequest(filter)));
  return (
    <DetailSection title={`Alerts${alerts.data ? ` (${alerts.data.total})` : ''}`}>
      {alerts.isPending ? (
        <Loader size="sm" role="status" aria-label="Loading the alerts" />
      ) : alerts.isError ? (
        <Notice color="red" title="Could not load the alerts.">
          {alerts.error.message}
        </Notice>
      ) : alerts.data.items.length ? (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Alerts">
          {alerts.data.items.map((alert) => (
            <AlertEntry key={alert.id} alert={alert} />
          ))}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          No alerts.
        </Text>
      )}
    </DetailSection>
  );
}
