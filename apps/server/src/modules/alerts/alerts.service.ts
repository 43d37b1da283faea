// Opening alerts on behalf of other modules (readings out of bounds, alert readings), audited like any write.
import type { Executor } from '../../db/client.js';
import { audit, type ActionContext } from '../audit/audit.service.js';
import { insertAlerts, type NewAlertRow } from './alerts.repository.js';

export const ALERTS_RESOURCE_NAME = 'alerts';

export type NewAlert = Omit<NewAlertRow, 'createdByUserId'>;

/** Opens active alerts in the caller's transaction; the caller's user is their creator. */
export async function openAlerts(executor: Executor, context: ActionContext, alerts: NewAlert[]) {
  const rows = alerts.map((alert) => ({ ...alert, createdByUserId: context.caller?.userId ?? null }));
  const ids = await insertAlerts(executor, rows);
  for (const [index, id] of ids.entries()) {
    const row = rows[index]!;
    await audit(executor, context, 'create', ALERTS_RESOURCE_NAME, id, {
      isActive: true,
      timestamp: row.timestamp,
      data: row.data,
      iotDevice: row.iotDeviceId,
      user: row.userId,
    });
  }
  return ids;
}
