// Alerts: the generic resource with its closing rule (closedByUser is the caller), and alerts opened on behalf
// of other modules (readings out of bounds, alert readings) inside their write.
import type { ActionContext } from '../../lib/audit.js';
import { badRequest } from '../../lib/errors.js';
import { createResourceService } from '../../lib/resources/service.js';
import type { Store, WriteScope } from '../../lib/store.js';
import { insertAlerts, type NewAlertRow } from './alerts.repository.js';
import { alertsResource } from './alerts.resource.js';

export type NewAlert = Omit<NewAlertRow, 'createdByUserId'>;

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

/** Opens active alerts in the caller's write; the caller's user is their creator. Answers their ids. */
export async function openAlerts(scope: WriteScope, alerts: NewAlert[]) {
  const rows = alerts.map((alert) => ({ ...alert, createdByUserId: scope.context.caller?.userId ?? null }));
  const ids = await insertAlerts(scope.tx, rows);
  for (const [index, id] of ids.entries()) {
    const row = rows[index]!;
    await scope.audit({
      action: 'create',
      resource: alertsResource.name,
      recordId: id,
      changes: {
        isActive: true,
        timestamp: row.timestamp,
        data: row.data,
        iotDevice: row.iotDeviceId,
        user: row.userId,
      },
    });
  }
  return ids;
}

export function createAlertsService(store: Store) {
  const alerts = createResourceService(store, alertsResource, {
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
  });
  return { alerts };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
