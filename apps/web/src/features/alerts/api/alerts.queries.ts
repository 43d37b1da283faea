// Alerts: the query-options factory, the open alerts of the admin home, a record's alerts, the alerts page
// (narrowed to a command center through the center's scoped list), and acknowledging and closing one, by an
// admin or by a command center's care team.
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { alertEndpoints, type Alert } from '@careplane/shared/alerts/alerts.contract';
import { commandCenterEndpoints } from '@careplane/shared/command-centers/command-centers.contract';
import type { ListResponse } from '@careplane/shared/common/http';
import i18next from 'i18next';
import { ApiError, api } from '@/lib/api-client.ts';
import { notify } from '@/lib/notify.ts';
import { isKept, postAlertAction, sendOrKeep } from '@/lib/offline/action-outbox.ts';
import type { AlertActionsVia, KeptAlertAction } from '@/lib/offline/outbox.ts';
import { offlineTexts } from '@/lib/offline/texts.ts';
import { LIVE_QUERY_ROOTS } from '@/lib/live-events.ts';
import { createResourceQueries, invalidateResource } from '@/lib/resource-kit/queries.ts';

export const alertQueries = createResourceQueries<Alert>('alerts', alertEndpoints);

/**
 * The relations an alert shows by name: whom it concerns, from which device, who sent, acknowledged and closed
 * it.
 */
const relations = 'user,iotDevice,createdByUser,acknowledgedByUser,closedByUser';

/** How many open alerts the admin home shows; the rest are on the alerts page. */
export const HOME_ALERTS = 8;

export const openAlertsRequest = {
  filters: ['isActive~true'],
  sort: ['timestamp:desc'],
  relations,
  limit: HOME_ALERTS,
};

/** The alerts of one user or IoT device (`user.id~…` or `iotDevice.id~…`): open ones first, latest first. */
export const recordAlertsRequest = (filter: string) => ({
  filters: [filter],
  sort: ['isActive:desc', 'timestamp:desc'],
  relations,
  limit: 20,
});

/** What the alerts page narrows to (its URL's parameters). */
export interface AlertFilters {
  /** active (default), closed or all */
  status: 'active' | 'closed' | 'all';
  severity: string | null;
  commandCenter: string | null;
  iotDevice: string | null;
  patient: string | null;
  page: number;
}

export const ALERTS_PAGE_SIZE = 20;

/** The list request of the alerts page: the alerts list, or a command center's scoped list. */
export function alertsPageRequest(filters: AlertFilters) {
  const list = [
    ...(filters.status === 'all' ? [] : [`isActive~${filters.status === 'active'}`]),
    ...(filters.severity ? [`severity~${filters.severity}`] : []),
    ...(filters.iotDevice ? [`iotDevice.id~${filters.iotDevice}`] : []),
    ...(filters.patient ? [`user.id~${filters.patient}`] : []),
  ];
  return {
    filters: list,
    sort: ['timestamp:desc'],
    relations,
    limit: ALERTS_PAGE_SIZE,
    offset: (Math.max(filters.page, 1) - 1) * ALERTS_PAGE_SIZE,
    ...(filters.commandCenter ? { commandCenter: filters.commandCenter } : {}),
  };
}

/** The alerts page's list; its key starts with the alerts' admin key, so live events refresh it. */
export const alertsPageQuery = (filters: AlertFilters) => {
  const request = alertsPageRequest(filters);
  return queryOptions({
    queryKey: [...alertQueries.all, 'page', request],
    queryFn: ({ signal }) =>
      api.get<ListResponse<Alert>>(
        request.commandCenter ? commandCenterEndpoints.alerts : alertEndpoints.list,
        {
          signal,
          query: request,
        },
      ),
    placeholderData: keepPreviousData,
  });
};

/** After an action: every list of alerts refetches, the admin's and the command center's. */
const refreshAlerts = (client: QueryClient) =>
  Promise.all([
    invalidateResource(client, 'alerts'),
    ...LIVE_QUERY_ROOTS.map((root) => client.invalidateQueries({ queryKey: [root, 'alerts'] })),
  ]);

/** What a tap on an alert's action carries: which alert, and its title for the notices. */
interface AlertTap {
  id: string;
  title: string;
}

/**
 * Sends an alert action with a new Idempotency-Key, or keeps it on the device (decision 107): without a network,
 * or behind this user's actions still waiting. Kept, it survives a reload and is sent once the network is back,
 * dated when it was tapped (decision 105); the outbox says when it went. Like every action it runs whatever the
 * network (the query client; the outbox decides), so nothing waits paused in a page that may be closed.
 */
function useAlertAction<Tap extends AlertTap>(
  via: AlertActionsVia,
  action: KeptAlertAction['action'],
  options: {
    note?: (tap: Tap) => string;
    done: (tap: Tap) => void;
    refused?: (error: Error, tap: Tap) => void;
  },
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tap: Tap) =>
      sendOrKeep(
        {
          kind: 'alert' as const,
          alertId: tap.id,
          action,
          via,
          label: i18next.t(action === 'close' ? 'alerts:entry.closeAlert' : 'alerts:entry.acknowledge'),
          subject: tap.title,
          ...(options.note ? { note: options.note(tap) } : {}),
        },
        async (entry) => (await postAlertAction(entry)) as Alert,
      ),
    onSuccess: (answer, tap) => {
      if (isKept(answer)) {
        notify({ color: 'orange', message: offlineTexts.queuedNotice(answer.kept.label, tap.title) });
        return;
      }
      options.done(tap);
      return refreshAlerts(client);
    },
    onError: (error, tap) => {
      options.refused?.(error, tap);
    },
  });
}

export function useAcknowledgeAlert(via: AlertActionsVia = 'admin') {
  return useAlertAction<AlertTap>(via, 'acknowledge', { done: () => undefined });
}

export function useCloseAlert(via: AlertActionsVia = 'admin') {
  const client = useQueryClient();
  return useAlertAction<AlertTap & { note: string }>(via, 'close', {
    note: (tap) => tap.note,
    // The alert leaves the list of open ones: a notice says it was closed.
    done: (tap) =>
      notify({ color: 'teal', message: i18next.t('alerts:entry.closedNotice', { title: tap.title }) }),
    // Someone closed it first: the alert leaves the list, so the refusal and the note written for it would go
    // with it. The notice keeps both until it is closed.
    refused: (error, { note }) => {
      if (!(error instanceof ApiError) || error.status !== 409) return;
      notify({
        color: 'orange',
        title: i18next.t('alerts:entry.closedMeanwhileTitle'),
        message: i18next.t('alerts:entry.closedMeanwhile', {
          reason: error.message.replace(/\.\s*$/, ''),
          note,
        }),
        autoClose: false,
      });
      void refreshAlerts(client);
    },
  });
}
