// Alerts: the query-options factory, the open alerts of the admin home, a record's alerts, and
// acknowledging and closing one.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { alertEndpoints, type Alert, type AlertClose } from '@careplane/shared/alerts/alerts.contract';
import { api } from '@/lib/api-client.ts';
import { createResourceQueries, invalidateResource } from '@/lib/resource-kit/queries.ts';

export const alertQueries = createResourceQueries<Alert>('alerts', alertEndpoints);

export const openAlertsRequest = {
  filters: ['isActive~true'],
  sort: ['timestamp:desc'],
  relations: 'user,iotDevice',
  limit: 8,
};

/** The alerts of one user or IoT device (`user.id~…` or `iotDevice.id~…`): open ones first, latest first. */
export const recordAlertsRequest = (filter: string) => ({
  filters: [filter],
  sort: ['isActive:desc', 'timestamp:desc'],
  relations: 'user,iotDevice',
  limit: 20,
});

export function useAcknowledgeAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<Alert>(alertEndpoints.acknowledge(id)),
    onSuccess: () => invalidateResource(client, 'alerts'),
  });
}

export function useCloseAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, note }: { id: string; note: string }) =>
      api.post<Alert>(alertEndpoints.close(id), { closingData: { note } } satisfies AlertClose),
    onSuccess: () => invalidateResource(client, 'alerts'),
  });
}
