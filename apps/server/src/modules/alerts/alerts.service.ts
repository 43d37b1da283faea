// Alerts: the generic resource with its closing rule (closedByUser is the caller), and alerts opened on behalf
// of other modules (readings out of bounds, alert readings) inside their write.
import { alertTitle } from '@careplane/shared/alerts/alert-title';
import { eventType } from '@careplane/shared/iot/reading-text';
import type { AlertAcknowledge, AlertClose } from '@careplane/shared/alerts/alerts.contract';
import { alertActionKeys } from '@/db/schema/index.js';
import { actionKeys, answerOfRepeat, callerKey, fingerprintOf } from '@/lib/action-keys.js';
import type { ActionContext } from '@/lib/audit.js';
import { takenAt } from '@/lib/kept-actions.js';
import { badRequest, conflict, notFound, serviceTexts } from '@/lib/errors.js';
import { createResourceService } from '@/lib/resources/service.js';
import type { Store, WriteScope } from '@/lib/store.js';
import {
  alertExists,
  findActiveReadingAlerts,
  findAlertForUpdate,
  findToldDeviceEvents,
  insertAlerts,
  updateAlert,
  type NewAlertRow,
} from './alerts.repository.js';
import { alertsResource } from './alerts.resource.js';

export type NewAlert = Omit<NewAlertRow, 'createdByUserId'>;

/** The reason of alerts opened by readings outside their bounds (one open tells a breach: alreadyTold). */
export const OUT_OF_BOUNDS = 'out_of_bounds';

const severityRank: Record<string, number> = { info: 0, warning: 1, critical: 2 };

/** Each field's side of its bounds an out-of-bounds alert tells: `heartRate:below`, `sys:above`. */
function breachSides(data: Record<string, unknown> | null | undefined): Set<string> {
  const sides = new Set<string>();
  const fields = data?.fields;
  if (!fields || typeof fields !== 'object') return sides;
  for (const [field, value] of Object.entries(fields as Record<string, unknown>)) {
    if (!value || typeof value !== 'object') continue;
    const { min, max, lowest, highest } = value as Record<string, unknown>;
    if (typeof min === 'number' && typeof lowest === 'number' && lowest < min) sides.add(`${field}:below`);
    if (typeof max === 'number' && typeof highest === 'number' && highest > max) sides.add(`${field}:above`);
  }
  return sides;
}

/**
 * Whether an open alert and a new one are of the same device about the same person: an alert of the device's
 * earlier patient tells nothing of the one it is assigned to now (decision 109).
 */
const sameDeviceAndPerson = (open: { iotDeviceId: string | null; userId: string | null }, alert: NewAlert) =>
  open.iotDeviceId === alert.iotDeviceId && open.userId === alert.userId;

/**
 * Whether an open out-of-bounds alert already tells what a new one would: the same device and data type, every
 * side of a bound the new one breaches, and a severity at least as high. A heart rate that stays high gets one
 * alert to act on, not one per reading; one that falls from 31 to a low bound's other side (150 above 130), or
 * grows critical, is told anew.
 */
export function alreadyTold(
  open: {
    iotDeviceId: string | null;
    userId: string | null;
    severity: string;
    data: Record<string, unknown> | null;
  },
  alert: NewAlert,
): boolean {
  if (!sameDeviceAndPerson(open, alert) || open.data?.dataType !== alert.data.dataType) return false;
  if ((severityRank[open.severity] ?? 0) < (severityRank[alert.severity] ?? 0)) return false;
  const told = breachSides(open.data);
  return [...breachSides(alert.data)].every((side) => told.has(side));
}

/** The reason of alerts opened by a device's own alert readings (a fall, an alarm button). */
export const ALERT_READING = 'alert_reading';

const readingOf = (data: Record<string, unknown> | null | undefined) =>
  (data?.reading ?? {}) as Record<string, unknown>;

/**
 * Whether an open alert of a device's own already tells what a new alert reading would: the same event (the
 * device sent it again, its `id` unchanged), or the same kind of event at no higher severity while nobody has
 * acknowledged the first yet. A fall reported fifty times before anyone looked is one alert to act on; once
 * someone has taken it up, a new fall is news again.
 */
export function alreadyReported(
  open: {
    iotDeviceId: string | null;
    userId: string | null;
    severity: string;
    data: Record<string, unknown> | null;
    acknowledgedAt: Date | null;
  },
  alert: NewAlert,
): boolean {
  if (!sameDeviceAndPerson(open, alert)) return false;
  const [was, now] = [readingOf(open.data), readingOf(alert.data)];
  if (was.id === now.id) return true;
  return (
    open.acknowledgedAt === null &&
    eventType(was) === eventType(now) &&
    (severityRank[open.severity] ?? 0) >= (severityRank[alert.severity] ?? 0)
  );
}

/**
 * Drops the alerts an earlier one already tells: an out-of-bounds alert an open one tells (alreadyTold), an
 * alert reading an open one reports (alreadyReported), and an alert reading whose event already opened an alert,
 * open or closed (a device's retry with a new time).
 */
export async function withoutOpenDuplicates(scope: WriteScope, alerts: NewAlert[]) {
  const devicesFor = (reason: string) => [
    ...new Set(
      alerts.flatMap((alert) =>
        alert.data.reason === reason && alert.iotDeviceId ? [alert.iotDeviceId] : [],
      ),
    ),
  ];
  const [boundsDevices, eventDevices] = [devicesFor(OUT_OF_BOUNDS), devicesFor(ALERT_READING)];
  if (boundsDevices.length === 0 && eventDevices.length === 0) return alerts;
  const openBounds = await findActiveReadingAlerts(scope.tx, boundsDevices, OUT_OF_BOUNDS);
  const openEvents = await findActiveReadingAlerts(scope.tx, eventDevices, ALERT_READING);
  const eventIds = alerts.flatMap((alert) => {
    const id = alert.data.reason === ALERT_READING ? readingOf(alert.data).id : undefined;
    return typeof id === 'string' ? [id] : [];
  });
  const toldEvents = await findToldDeviceEvents(scope.tx, eventDevices, eventIds);
  return alerts.filter((alert) => {
    if (alert.data.reason === OUT_OF_BOUNDS) return !openBounds.some((one) => alreadyTold(one, alert));
    if (alert.data.reason !== ALERT_READING) return true;
    if (toldEvents.has(`${alert.iotDeviceId} ${String(readingOf(alert.data).id)}`)) return false;
    return !openEvents.some((one) => alreadyReported(one, alert));
  });
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

/** The two actions on an open alert a phone may keep and send with a key. */
type AlertAction = 'acknowledge' | 'close';

/** An action's Idempotency-Key (decision 107): whose, which, and what the action said. */
interface ActionKey {
  userId: string;
  key: string;
  fingerprint: string;
}

/** What an action answers: the alert, and whether it is a key's repeat (answered, nothing changed). */
export interface AlertOutcome {
  alert: Awaited<ReturnType<ReturnType<typeof createAlertsService>['alerts']['read']>>;
  replayed: boolean;
}

const alertKeys = actionKeys(alertActionKeys);

/**
 * What a key's repeat must match besides the alert and the action: for a closing its closingData, for an
 * acknowledgement nothing (it says nothing else). Never `keptForSeconds`: a send whose answer was lost is kept
 * and sent again, saying it was kept longer, and is the same action.
 */
const ACKNOWLEDGE_FINGERPRINT = fingerprintOf({});

/** The key an action was sent with, and what the action said (a device's credential has no user to key by). */
function actionKeyOf(
  context: ActionContext,
  idempotencyKey: string | undefined,
  fingerprint: string,
): ActionKey | undefined {
  const key = callerKey(context, idempotencyKey);
  return key && { ...key, fingerprint };
}

/** A key used before: its answer again, or, when it was sent with another request, a clear refusal. */
const repeatOf = (
  earlier: typeof alertActionKeys.$inferSelect,
  id: string,
  action: AlertAction,
  fingerprint: string,
) =>
  answerOfRepeat({ ...earlier, record: earlier.alertId }, { record: id, action, fingerprint }, (otherBody) =>
    serviceTexts.idempotencyKeyReusedForAlert(earlier.action, earlier.alertId, otherBody),
  );

export function createAlertsService(store: Store) {
  const alerts = createResourceService(store, alertsResource, {
    derive: (body, mode, context) => {
      const derived: Record<string, unknown> = {};
      if (mode === 'create' && body.timestamp === undefined) derived.timestamp = Date.now();
      if (body.isActive === false) {
        derived.closedByUserId = closingUser(context);
        derived.closedAt = new Date();
      }
      // Reopening clears the closing, so an active alert never carries one, and the acknowledgement: it needs
      // someone to take it up again (the history keeps who did the first time).
      if (body.isActive === true && mode === 'update') {
        derived.closedByUserId = null;
        derived.closingData = null;
        derived.closedAt = null;
        derived.acknowledgedByUserId = null;
        derived.acknowledgedAt = null;
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

  const readPlain = (id: string) => alerts.read(id, { relations: [] });
  type AlertAnswer = Awaited<ReturnType<typeof readPlain>>;

  /**
   * Changes an open alert in one audited transaction; a closed one is a 409, a missing one a 404. With a key
   * (decision 107) the first request claims it in that transaction and saves the alert it answers; a repeat,
   * even one sent while the first still runs or after the alert was closed, answers what the first answered
   * and changes nothing.
   */
  async function changeOpenAlert(
    id: string,
    context: ActionContext,
    action: AlertAction,
    change: (existing: { acknowledgedAt: Date | null; createdAt: Date }) => Record<string, unknown>,
    keptForSeconds: number | undefined,
    key: ActionKey | undefined,
  ): Promise<AlertOutcome> {
    const replay = async (answer: Record<string, unknown> | null): Promise<AlertOutcome> => ({
      alert: (answer as AlertAnswer | null) ?? (await readPlain(id)),
      replayed: true,
    });
    if (key) {
      const earlier = await alertKeys.find(store.db, key.userId, key.key);
      if (earlier) return replay(repeatOf(earlier, id, action, key.fingerprint));
    }
    const repeated = await store.write(context, async (scope) => {
      if (key) {
        // The key names the alert: a missing one is a 404, as without a key, before the key is claimed.
        if (!(await alertExists(scope.tx, id))) throw notFound('Alert');
        if (!(await alertKeys.claim(scope.tx, { ...key, alertId: id, action }))) {
          // A request with the same key committed while this one ran: it answers for both.
          const earlier = await alertKeys.find(scope.tx, key.userId, key.key);
          if (earlier) return { answer: repeatOf(earlier, id, action, key.fingerprint) };
        }
      }
      const existing = await findAlertForUpdate(scope.tx, id);
      if (!existing) throw notFound('Alert');
      if (!existing.isActive) throw conflict(serviceTexts.alertClosed);
      const values = change(existing);
      await updateAlert(scope.tx, id, values);
      // An action dated back says by how much: the audit row's own time is when it arrived.
      const changes = {
        ...values,
        ...(keptForSeconds === undefined ? {} : { keptForSeconds }),
        ...(key ? { idempotencyKey: key.key } : {}),
      };
      await scope.audit({ action, resource: alertsResource.name, recordId: id, changes });
      return null;
    });
    if (repeated) return replay(repeated.answer);
    const alert = await readPlain(id);
    if (key) await alertKeys.saveAnswer(store.db, key.userId, key.key, alert);
    return { alert, replayed: false };
  }

  /**
   * When the caller took the action: now, or for one kept on their phone without a network, now less how long it
   * was kept, never before `notBefore` (the alert was recorded; a closing, its acknowledgement: decision 105).
   */
  const actedAt = (keptForSeconds: number | undefined, notBefore: Date) =>
    keptForSeconds === undefined ? new Date() : takenAt(keptForSeconds, new Date(), notBefore);

  /** The caller has seen the alert: it stays open, naming who acknowledged it and when (once). */
  const acknowledge = async (
    id: string,
    body: AlertAcknowledge | null | undefined,
    context: ActionContext,
    idempotencyKey?: string,
  ) => {
    const key = actionKeyOf(context, idempotencyKey, ACKNOWLEDGE_FINGERPRINT);
    const userId = closingUser(context);
    return changeOpenAlert(
      id,
      context,
      'acknowledge',
      (existing) => {
        if (existing.acknowledgedAt) throw conflict(serviceTexts.alertAcknowledged);
        return {
          acknowledgedAt: actedAt(body?.keptForSeconds, existing.createdAt),
          acknowledgedByUserId: userId,
        };
      },
      body?.keptForSeconds,
      key,
    );
  };

  /** Closes an open alert: the caller is closedByUser, `closingData` says what was done. */
  const close = async (id: string, body: AlertClose, context: ActionContext, idempotencyKey?: string) => {
    const key = actionKeyOf(context, idempotencyKey, fingerprintOf(body.closingData));
    const userId = closingUser(context);
    return changeOpenAlert(
      id,
      context,
      'close',
      (existing) => ({
        isActive: false,
        closingData: body.closingData,
        closedByUserId: userId,
        closedAt: actedAt(body.keptForSeconds, existing.acknowledgedAt ?? existing.createdAt),
      }),
      body.keptForSeconds,
      key,
    );
  };

  return { alerts, acknowledge, close };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
