// Alerts as a generic resource: table, contract schemas, list spec bound to SQL.
import {
  alertCreateSchema,
  alertEndpoints,
  alertListSpec,
  alertSchema,
  alertUpdateSchema,
} from '@careplane/shared/alerts/alerts.contract';
import { alerts } from '@/db/schema/index.js';
import { defineResource } from '@/lib/resources/definition.js';
import { bindListSpec, column } from '@/lib/resources/filters.js';

export const alertsResource = defineResource({
  name: 'alerts',
  label: 'Alert',
  entity: 'alerts',
  table: alerts,
  idColumn: alerts.id,
  path: alertEndpoints.list,
  schemas: { create: alertCreateSchema, update: alertUpdateSchema, item: alertSchema },
  references: { user: 'userId', iotDevice: 'iotDeviceId' },
  createdByColumn: 'createdByUserId',
  list: {
    spec: alertListSpec,
    query: bindListSpec(alertListSpec, {
      idColumn: alerts.id,
      time: alerts.timestamp,
      filters: {
        id: column(alerts.id),
        isActive: column(alerts.isActive),
        severity: column(alerts.severity),
        'iotDevice.id': column(alerts.iotDeviceId),
        'user.id': column(alerts.userId),
        'closedByUser.id': column(alerts.closedByUserId),
        'createdByUser.id': column(alerts.createdByUserId),
      },
      search: { id: alerts.id },
      sort: {
        timestamp: alerts.timestamp,
        createdAt: alerts.createdAt,
        updatedAt: alerts.updatedAt,
        isActive: alerts.isActive,
        severity: alerts.severity,
      },
    }),
  },
});
