// Alerts: the query-options factory and the open alerts of the admin home.
import { alertEndpoints, type Alert } from '@careplane/shared/alerts/alerts.contract';
import { createResourceQueries } from '../../../lib/resource-kit/queries.ts';

export const alertQueries = createResourceQueries<Alert>('alerts', alertEndpoints);

export const openAlertsRequest = {
  filters: ['isActive~true'],
  sort: ['timestamp:desc'],
  relations: 'user,iotDevice',
  limit: 8,
};
