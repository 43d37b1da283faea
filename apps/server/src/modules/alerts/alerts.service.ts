// Alerts: the generic resource with its closing rule (closedByUser is the caller), and alerts opened on behalf
// of other modules (readings out of bounds, alert readings) inside their write.
import { alertTitle } from '@careplane/shared/alerts/alert-title';
import type { AlertClose } from '@careplane/shared/alerts/alerts.contract';
import type { ActionContext } from '@/lib/audit.js';
import { badRequest, conflict, notFound, serviceTexts } from '@/lib/errors.js';
import { createResourceService } from '@/lib/resources/service.js';
import type { Store, WriteScope } from '@/lib/store.js';
import {
  findActiveReadingAlertKeys,
  findAlertForUpdate,
  insertAlerts,
  updateAlert,
  type NewAlertRow,
} from './alerts.repository.js';
import { alertsResource } from './alerts.resource.js';

export type NewAlert = Omit<NewAlertRow, 'createdByUserId'>;

/** The reason of alerts opened by readings outside their bounds; one stays open per device and data type. */
export const OUT_OF_BOUNDS = 'out_of_bounds';

/**
 * Drops out-of-bounds alerts for a device and data type that already has one open: a patient whose heart
 * rate stays high gets one alert to act on, not one per reading.
 */
export async function withoutOpenDuplicates(scope: WriteScope, alerts: NewAlert[]) {
  const candidates = alerts.filter((alert) => alert.data.reason === OUT_OF_BOUNDS && alert.iotDeviceId);
  if (candidates.length === 0) return alerts;
  const open = await findActiveReadingAlertKeys(
    scope.tx,
    [...new Set(candidates.map((alert) => alert.iotDeviceId!))],
    OUT_OF_BOUNDS,
  );
  return alerts.filter(
    (alert) =>
      alert.data.reason !== OUT_OF_BOUNDS || !open.has(`${alert.iotDeviceId}/${String(alert.data.dataType)}`),
  );
}

/** The user closing an alert; a closed alert always names one. */
function closingUser(context: ActionContext) {
  const userId = context.caller?.userId;
  if (!userId) {
    throw badRequest(serviceTexts.closingNeedsUser, [
      { path: 'isActive', message: 'No user record for the caller' },
    ]);
  }
  return userId;
}

/**
 * Opens active alerts in the caller's write; the caller's user is their creator. Each carries its readable
 * title in `data.title` (the shared `alertTitle`), for whoever reads the alert without the console. Answers
 * their ids.
 */
export async function openAlerts(scope: WriteScope, requested: NewAlert[]) {
  const alerts = await withoutOpenDuplicates(scope, requested);
  const rows = alerts.map((alert) => ({
    ...alert,
    data: { ...alert.data, title: alertTitle(alert) },
    createdByUserId: scope.context.caller?.userId ?? null,
  }));
  const ids = await insertAlerts(scope.tx, rows);
  for (const [index, id] of ids.entries()) {
    const row = rows[index]!;
    await scope.audit({
      action: 'create',
      resource: alertsResource.name,
      recordId: id,
      changes: {
        isActive: true,
        severity: row.severity,
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
      if (body.isActive === false) {
        derived.closedByUserId = closingUser(context);
        derived.closedAt = new Date();
      }
      // Reopening clears the closing, so an active alert never carries one.
      if (body.isActive === true && mode === 'update') {
        derived.closedByUserId = null;
        derived.closingData = null;
        derived.closedAt = null;
      }
      return derived;
    },
    check: async (_executor, plan, mode, existing) => {
      if (mode !== 'update' || !existing) return;
      const closingDataGiven = plan.values.closingData !== undefined && plan.values.closingData !== null;
      if (closingDataGiven && plan.values.isActive === undefined && existing.isActive === true) {
        throw badRequest(serviceTexts.closingDataOnlyWhenClosing, [
          { path: 'closingData', message: 'Send isActive false with it to close the alert' },
        ]);
      }
    },
  });

  /** Changes an open alert in one audited transaction; a closed one is a 409, a missing one a 404. */
  async function changeOpenAlert(
    id: string,
    context: ActionContext,
    action: string,
    change: (existing: { acknowledgedAt: Date | null }) => Record<string, unknown>,
  ) {
    await store.write(context, async (scope) => {
      const existing = await findAlertForUpdate(scope.tx, id);
      if (!existing) throw notFound('Alert');
      if (!existing.isActive) throw conflict(serviceTexts.alertClosed);
      const values = change(existing);
      await updateAlert(scope.tx, id, values);
      await scope.audit({ action, resource: alertsResource.name, recordId: id, changes: values });
    });
    return alerts.read(id, { relations: [] });
  }

  /** The caller has seen the alert: it stays open, naming who acknowledged it and when (once). */
  const acknowledge = (id: string, context: ActionContext) => {
    const userId = closingUser(context);
    return changeOpenAlert(id, context, 'acknowledge', (existing) => {
      if (existing.acknowledgedAt) throw conflict(serviceTexts.alertAcknowledged);
      return { acknowledgedAt: new Date(), acknowledgedByUserId: userId };
    });
  };

  /** Closes an open alert: the caller is closedByUser, `closingData` says what was done. */
  const close = (id: string, body: AlertClose, context: ActionContext) => {
    const userId = closingUser(context);
    return changeOpenAlert(id, context, 'close', () => ({
      isActive: false,
      closingData: body.closingData,
      closedByUserId: userId,
      closedAt: new Date(),
    }));
  };

  return { alerts, acknowledge, close };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
