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
import {
  alertEndpoints,
  MAX_KEPT_ALERT_SECONDS,
  type Alert,
  type AlertAcknowledge,
  type AlertClose,
} from '@careplane/shared/alerts/alerts.contract';
import { keptForSecondsSince } from '@careplane/shared/common/kept-actions';
import { commandCenterEndpoints } from '@careplane/shared/command-centers/command-centers.contract';
import type { ListResponse } from '@careplane/shared/common/http';
import i18next from 'i18next';
import { ApiError, api } from '@/lib/api-client.ts';
import { notify } from '@/lib/notify.ts';
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

/**
 * Whose calls act on an alert: the admin's (`/api/alerts/…`, any alert) or a command center's care team
 * (`/api/command-centers/alerts/…`, the alerts of their own centers; decision 079).
 */
export type AlertActionsVia = 'admin' | 'commandCenter';

const actionPaths = {
  admin: { acknowledge: alertEndpoints.acknowledge, close: alertEndpoints.close },
  commandCenter: {
    acknowledge: commandCenterEndpoints.acknowledgeAlert,
    close: commandCenterEndpoints.closeAlert,
  },
} as const;

/** After an action: every list of alerts refetches, the admin's and the command center's. */
const refreshAlerts = (client: QueryClient) =>
  Promise.all([
    invalidateResource(client, 'alerts'),
    ...LIVE_QUERY_ROOTS.map((root) => client.invalidateQueries({ queryKey: [root, 'alerts'] })),
  ]);

/**
 * How long ago an action was tapped, when it is sent later than that (it waited offline): the server records it as
 * taken then (decision 105). Sent at once, it says nothing.
 */
const kept = (tappedAt: number) => {
  const seconds = keptForSecondsSince(tappedAt, Date.now(), MAX_KEPT_ALERT_SECONDS);
  return seconds > 0 ? { keptForSeconds: seconds } : {};
};

/**
 * What a tap on an alert's action carries: when it was tapped, whether the device was offline then (the action
 * waits for the network and says so once sent), and the alert's title for that notice.
 */
interface AlertTap {
  id: string;
  tappedAt: number;
  offline?: boolean;
  title?: string;
}

export function useAcknowledgeAlert(via: AlertActionsVia = 'admin') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, tappedAt }: AlertTap) => {
      const body: AlertAcknowledge = kept(tappedAt);
      return api.post<Alert>(actionPaths[via].acknowledge(id), Object.keys(body).length ? body : undefined);
    },
    onSuccess: (_, tap) => {
      if (tap.offline) {
        notify({
          color: 'teal',
          message: offlineTexts.sent(i18next.t('alerts:entry.acknowledge'), tap.title),
        });
      }
      return refreshAlerts(client);
    },
  });
}

export function useCloseAlert(via: AlertActionsVia = 'admin') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, note, tappedAt }: AlertTap & { note: string }) =>
      api.post<Alert>(actionPaths[via].close(id), {
        closingData: { note },
        ...kept(tappedAt),
      } satisfies AlertClose),
    // The alert leaves the list of open ones: a notice says it was closed, or sent once back online.
    onSuccess: (_, tap) => {
      notify({
        color: 'teal',
        message: tap.offline
          ? offlineTexts.sent(i18next.t('alerts:entry.closeAlert'), tap.title)
          : i18next.t('alerts:entry.closedNotice', { title: tap.title ?? '' }),
      });
      return refreshAlerts(client);
    },
    // Someone closed it first (say while this phone was offline): the alert leaves the list, so the refusal
    // and the note written for it would go with it. The notice keeps both until it is closed.
    onError: (error, { note }) => {
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
