// Alerts as a generic resource: filters, sorts, and the closing rule (closedByUser is the caller).
import { desc } from 'drizzle-orm';
import { alertCreateSchema, alertSchema, alertUpdateSchema } from '@careplane/shared/alerts/alerts.contract';
import { alerts } from '../../db/schema/index.js';
import { badRequest } from '../../lib/errors.js';
import { columnFilter, kinds } from '../../lib/resources/filters.js';
import type { ResourceDefinition } from '../../lib/resources/resource.js';
import type { ActionContext } from '../audit/audit.service.js';
import { ALERTS_RESOURCE_NAME } from './alerts.service.js';

/** The user closing an alert; a closed alert always names one. */
function closingUser(context: ActionContext) {
  const userId = context.caller?.userId;
  if (!userId) {
    throw badRequest('Closing an alert needs your user record: sign in to the application once', [
      { path: 'isActive', message: 'No user record for the caller' },
    ]);
  }
  return userId;
}

export const alertsResource: ResourceDefinition = {
  name: ALERTS_RESOURCE_NAME,
  entity: 'alerts',
  table: alerts,
  idColumn: alerts.id,
  path: '/api/alerts',
  schemas: { create: alertCreateSchema, update: alertUpdateSchema, item: alertSchema },
  references: { user: 'userId', iotDevice: 'iotDeviceId' },
  createdByColumn: 'createdByUserId',
  derive: (body, mode, context) => {
    const derived: Record<string, unknown> = {};
    if (mode === 'create' && body.timestamp === undefined) derived.timestamp = Date.now();
    if (body.isActive === false) derived.closedByUserId = closingUser(context);
    // Reopening clears the closing, so an active alert never carries one.
    if (body.isActive === true && mode === 'update') {
      derived.closedByUserId = null;
      derived.closingData = null;
    }
    return derived;
  },
  check: async (_executor, plan, mode, existing) => {
    if (mode !== 'update' || !existing) return;
    const closingDataGiven = plan.values.closingData !== undefined && plan.values.closingData !== null;
    if (closingDataGiven && plan.values.isActive === undefined && existing.isActive === true) {
      throw badRequest('closingData is only given when closing an alert', [
        { path: 'closingData', message: 'Send isActive false with it to close the alert' },
      ]);
    }
  },
  query: {
    idColumn: alerts.id,
    timeColumn: alerts.timestamp,
    defaultSort: [desc(alerts.timestamp)],
    filters: {
      id: columnFilter(alerts.id, kinds.uuid),
      isActive: columnFilter(alerts.isActive, kinds.boolean),
      'iotDevice.id': columnFilter(alerts.iotDeviceId, kinds.uuid),
      'user.id': columnFilter(alerts.userId, kinds.uuid),
      'closedByUser.id': columnFilter(alerts.closedByUserId, kinds.uuid),
      'createdByUser.id': columnFilter(alerts.createdByUserId, kinds.uuid),
    },
    like: { id: alerts.id },
    sorts: {
      timestamp: alerts.timestamp,
      createdAt: alerts.createdAt,
      updatedAt: alerts.updatedAt,
      isActive: alerts.isActive,
    },
  },
};
