// SQL of alerts beyond the generic engine: alerts opened by other writes, in their transaction.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client.js';
import { alerts } from '@/db/schema/index.js';

export interface NewAlertRow {
  severity: string;
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

/** The open alerts of these devices opened for a reason: their device, severity, data and acknowledgement. */
export async function findActiveReadingAlerts(executor: Executor, iotDeviceIds: string[], reason: string) {
  if (iotDeviceIds.length === 0) return [];
  return executor
    .select({
      iotDeviceId: alerts.iotDeviceId,
      userId: alerts.userId,
      severity: alerts.severity,
      data: alerts.data,
      acknowledgedAt: alerts.acknowledgedAt,
    })
    .from(alerts)
    .where(
      and(
        eq(alerts.isActive, true),
        inArray(alerts.iotDeviceId, iotDeviceIds),
        sql`${alerts.data}->>'reason' = ${reason}`,
      ),
    );
}

/**
 * The alert, locked for a change of its own columns (undefined when there is none). FOR NO KEY UPDATE, not FOR
 * UPDATE: a claimed action key's foreign key holds FOR KEY SHARE on this row, and FOR UPDATE would make two
 * claims on one alert wait on each other.
 */
export async function findAlertForUpdate(executor: Executor, id: string) {
  const [row] = await executor.select().from(alerts).where(eq(alerts.id, id)).for('no key update').limit(1);
  return row;
}

/** Whether the alert exists, without locking it. */
export async function alertExists(executor: Executor, id: string): Promise<boolean> {
  const [row] = await executor.select({ id: alerts.id }).from(alerts).where(eq(alerts.id, id)).limit(1);
  return row !== undefined;
}

export async function updateAlert(
  executor: Executor,
  id: string,
  values: Partial<typeof alerts.$inferInsert>,
) {
  const [row] = await executor
    .update(alerts)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(alerts.id, id))
    .returning();
  return row!;
}

/**
 * `<iotDeviceId> <event id>` of the alerts, open or closed, that alert readings with these event ids (the id a
 * device gives its event) of these devices already opened.
 */
export async function findToldDeviceEvents(
  executor: Executor,
  iotDeviceIds: string[],
  eventIds: string[],
): Promise<Set<string>> {
  if (iotDeviceIds.length === 0 || eventIds.length === 0) return new Set();
  const rows = await executor
    .select({ iotDeviceId: alerts.iotDeviceId, eventId: sql<string>`${alerts.data}->'reading'->>'id'` })
    .from(alerts)
    .where(
      and(
        inArray(alerts.iotDeviceId, iotDeviceIds),
        sql`${alerts.data}->>'reason' = 'alert_reading'`,
        inArray(sql`${alerts.data}->'reading'->>'id'`, eventIds),
      ),
    );
  return new Set(rows.map((row) => `${row.iotDeviceId} ${row.eventId}`));
}
