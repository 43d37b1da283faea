// SQL of alerts beyond the generic engine: alerts opened by other writes, in their transaction.
import type { Executor } from '../../db/client.js';
import { alerts } from '../../db/schema/index.js';

export interface NewAlertRow {
  timestamp: number;
  data: Record<string, unknown>;
  iotDeviceId: string | null;
  userId: string | null;
  createdByUserId: string | null;
}

export async function insertAlerts(executor: Executor, rows: NewAlertRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await executor
    .insert(alerts)
    .values(rows.map((row) => ({ ...row, isActive: true })))
    .returning({ id: alerts.id });
  return inserted.map((row) => row.id);
}
