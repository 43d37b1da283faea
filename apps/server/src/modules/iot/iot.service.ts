// IoT devices and readings: the generic resources with their rules (connection secrets, device links),
// submissions (a batch of readings all or nothing, with the alerts it opens), latest reading, exists check.
import { hash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { canonicalJson } from '@careplane/shared/common/canonical-json';
import { eventType } from '@careplane/shared/iot/reading-text';
import { alertSeverities, type AlertSeverity } from '@careplane/shared/alerts/alerts.contract';
import type { IotDataType } from '@careplane/shared/common/enums';
import {
  TRUSTED_LEVEL,
  boundsBreaches,
  connectionSecretIssues,
  type IngestionCounts,
  type IotDataSubmission,
  type IotDataSubmissionResult,
  type LastDataSubmission,
  type Reading,
  type ReadingBounds,
  type ReadingsSummary,
  type ReadingsSummaryQuery,
} from '@careplane/shared/iot/iot.contract';
import { type ActionContext, redactChanges } from '@/lib/audit.js';
import { badRequest, notFound, serviceTexts, type Text, unauthorized } from '@/lib/errors.js';
import { createResourceService } from '@/lib/resources/service.js';
import type { Store } from '@/lib/store.js';
import {
  ALERT_READING,
  OUT_OF_BOUNDS,
  alreadyReported,
  alreadyTold,
  openAlerts,
  type NewAlert,
} from '@/modules/alerts/alerts.service.js';
import { iotDataResource, iotDevicesResource } from './iot.resource.js';
import {
  countDeviceLinks,
  findDeviceForSubmission,
  findDevicesByHardwareIdentifier,
  findIotDeviceId,
  findLatestReading,
  insertReadings,
  storeReadingsAlone,
  summarizeReadings,
  type DeviceVersion,
  type ReadingRow,
  isLinkedToDevice,
} from './iot.repository.js';
import { createSecretVerifier, hashConnectionSecret } from './iot.secrets.js';

type ReadingInput = Record<string, unknown> & { timestamp: number };

/** In id order, so concurrent batches that share readings take their row locks in one order; no repeats. */
function inIdOrder(rows: ReadingRow[]) {
  return [...new Map(rows.map((row) => [row.id, row])).values()].sort((a, b) =>
    a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
}

/**
 * Alerts of one batch that an earlier one of the batch already tells are dropped: out of bounds (alreadyTold),
 * or a device's own event (alreadyReported, nobody having seen the earlier one yet).
 */
function mergeBatchAlerts(alerts: NewAlert[]) {
  const kept: NewAlert[] = [];
  for (const alert of alerts) {
    const told = kept.some(
      (one) =>
        one.data.reason === alert.data.reason &&
        (alert.data.reason === OUT_OF_BOUNDS
          ? alreadyTold(one, alert)
          : alert.data.reason === ALERT_READING && alreadyReported({ ...one, acknowledgedAt: null }, alert)),
    );
    if (!told) kept.push(alert);
  }
  return kept;
}

const TIMESTAMP_SPACE = 2 ** 48;

/**
 * The id of a reading follows from what it is: the device, the type and the reading itself. A retried
 * submission therefore names the same records and stores nothing twice, with or without a client key.
 * Layout (UUID version 8): 48 bits of the reading's timestamp, so ids sort by reading time, then 74 bits
 * of SHA-256 over the canonical reading.
 */
export function readingRecordId(iotDeviceId: string, dataType: string, reading: ReadingInput): string {
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(Math.trunc(reading.timestamp) % TIMESTAMP_SPACE, 0, 6);
  // The one-shot hash: a third cheaper than a Hash object for a text this short, and ids are made per reading.
  const digest = hash('sha256', canonicalJson([iotDeviceId.toLowerCase(), dataType, reading]), 'buffer');
  digest.copy(bytes, 6, 0, 10);
  bytes[6] = 0x80 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const MAX_IDS_IN_AUDIT = 100;

const severityRank: Record<AlertSeverity, number> = { info: 0, warning: 1, critical: 2 };

/**
 * Alerts opened by readings stored now: one per `alert` reading (its own `severity` when it names one,
 * otherwise critical), and one per batch of readings of a type with fields outside their bounds.
 */
export function alertsForReadings(
  bounds: ReadingBounds,
  dataType: IotDataType,
  rows: ReadingRow[],
  device: { id: string; assignedUserId: string | null },
): NewAlert[] {
  const base = { iotDeviceId: device.id, userId: device.assignedUserId };
  if (dataType === 'alert') {
    // One alert per kind of event and severity in a batch, the first reading's, counting the others: a device
    // that sends a burst of the same event (or is made to) opens one alert, not thousands.
    const events = new Map<string, NewAlert & { data: { count: number } }>();
    for (const row of rows) {
      const named = row.data.severity;
      const severity = (alertSeverities as readonly unknown[]).includes(named)
        ? (named as AlertSeverity)
        : 'critical';
      const key = `${eventType(row.data)} ${severity}`;
      const told = events.get(key);
      if (told) told.data.count += 1;
      else
        events.set(key, {
          ...base,
          severity,
          timestamp: row.timestamp,
          data: { reason: ALERT_READING, dataType, readingId: row.id, reading: row.data, count: 1 },
        });
    }
    return [...events.values()];
  }
  const outside = rows
    .map((row) => ({ row, breaches: boundsBreaches(bounds, dataType, row.data) }))
    .filter((entry) => entry.breaches.length > 0);
  const first = outside[0];
  if (!first) return [];
  const fields: Record<string, { min?: number; max?: number; lowest: number; highest: number }> = {};
  let severity: AlertSeverity = 'warning';
  for (const { breaches } of outside) {
    for (const breach of breaches) {
      const field = (fields[breach.field] ??= {
        ...(breach.min === undefined ? {} : { min: breach.min }),
        ...(breach.max === undefined ? {} : { max: breach.max }),
        lowest: breach.value,
        highest: breach.value,
      });
      field.lowest = Math.min(field.lowest, breach.value);
      field.highest = Math.max(field.highest, breach.value);
      if (severityRank[breach.severity] > severityRank[severity]) severity = breach.severity;
    }
  }
  return [
    {
      ...base,
      severity,
      timestamp: first.row.timestamp,
      data: {
        reason: OUT_OF_BOUNDS,
        dataType,
        count: outside.length,
        fields,
        readingIds: outside.slice(0, MAX_IDS_IN_AUDIT).map((entry) => entry.row.id),
        reading: first.row.data,
      },
    },
  ];
}

/** How a submission or message is refused: an HTTP status and a message for the log and the answer. */
class Refusal extends Error {
  constructor(
    readonly status: 400 | 401 | 404,
    readonly text: Text,
    readonly issues?: { path: string; message: string }[],
  ) {
    super(text.en);
  }
  toAppError() {
    return this.status === 404
      ? notFound('IoT device')
      : this.status === 401
        ? unauthorized(this.text)
        : badRequest(this.text, this.issues);
  }
}

interface SubmittingDevice {
  id: string;
  trustLevel: string | null;
  connectionSecret: string | null;
  supportedDataTypes: string[];
  assignedUserId: string | null;
}

/** A message of readings from MQTT, already parsed: the device by its hardware identifier. */
export interface IncomingReadings {
  hardwareIdentifier: string;
  dataType: IotDataType;
  readings: Reading[];
  /** The connection secret the message carried, if any. */
  secret?: string | undefined;
}

export type IngestOutcome = { stored: number; duplicates: number } | { refused: string };

export interface IotSettings {
  bounds: ReadingBounds;
  /** Told when the change message of stored MQTT readings could not be sent (the readings stay stored). */
  onRelayError?: (error: unknown) => void;
}

export function createIotService(store: Store, settings: IotSettings) {
  const { db } = store;
  const verifySecret = createSecretVerifier();
  const counts: IngestionCounts = {
    http: { stored: 0, duplicates: 0, rejected: 0, rejectedMessages: 0 },
    mqtt: { stored: 0, duplicates: 0, rejected: 0, rejectedMessages: 0 },
  };

  /** Refuses a device that may not submit this batch (type not supported, trusted without its secret). */
  async function admit(device: SubmittingDevice, dataType: IotDataType, secret: string | undefined) {
    if (device.supportedDataTypes.length && !device.supportedDataTypes.includes(dataType)) {
      throw new Refusal(400, serviceTexts.unsentDataType(dataType), [
        {
          path: 'dataType',
          message: `Not among the device's supported data types: ${device.supportedDataTypes.join(', ')}`,
        },
      ]);
    }
    if (device.trustLevel === TRUSTED_LEVEL) {
      // A missing secret and a wrong one are told apart: the operator reading the log fixes different things.
      if (!secret) throw new Refusal(401, serviceTexts.trustedNeedsSecret);
      if (!(await verifySecret(secret, device.connectionSecret))) {
        throw new Refusal(401, serviceTexts.trustedSecretWrong);
      }
    }
  }

  const iotDevices = createResourceService(store, iotDevicesResource, {
    // The secret is hashed before the transaction; the plain text never reaches the database.
    derive: async (body) =>
      typeof body.connectionSecret === 'string'
        ? { connectionSecret: await hashConnectionSecret(body.connectionSecret) }
        : {},
    check: async (executor, plan, _mode, existing) => {
      const { values, links } = plan;
      // Spec §5 on the record as it will be stored: the body's fields over the stored ones.
      const trustLevel = (Object.hasOwn(values, 'trustLevel') ? values.trustLevel : existing?.trustLevel) as
        string | null | undefined;
      const hasSecret = Boolean(
        Object.hasOwn(values, 'connectionSecret') ? values.connectionSecret : existing?.connectionSecret,
      );
      const issues = connectionSecretIssues(trustLevel, hasSecret);
      if (issues.length) throw badRequest(serviceTexts.invalidTrust, issues);

      const allowMultiple = (values.allowMultipleDeviceRelationships ??
        existing?.allowMultipleDeviceRelationships ??
        false) as boolean;
      if (allowMultiple) return;
      const linked =
        links.devices?.length ?? (existing ? await countDeviceLinks(executor, existing.id as string) : 0);
      if (linked > 1) {
        throw badRequest(serviceTexts.iotDeviceOneLink, [
          { path: 'devices', message: 'At most one device unless allowMultipleDeviceRelationships is true' },
        ]);
      }
    },
  });

  const readings = createResourceService(store, iotDataResource);

  /**
   * A batch's rows. Each reading is about the device's assigned user as the batch was admitted (its row
   * version is checked as it is stored), as the alerts it opens are: a device given to someone else later
   * does not take these readings with it (decision 109).
   */
  const rowsOf = (
    device: { id: string; assignedUserId: string | null },
    dataType: IotDataType,
    readings: Reading[],
    createdByUserId: string | null,
  ): ReadingRow[] =>
    readings.map((reading) => ({
      id: readingRecordId(device.id, dataType, reading as ReadingInput),
      timestamp: reading.timestamp,
      dataType,
      data: reading,
      iotDeviceId: device.id,
      userId: device.assignedUserId,
      createdByUserId,
    }));

  /**
   * Stores a batch all-or-nothing in one transaction, with the alerts it opens. `relayedBy` is the client
   * device that sends it with its device token: it may only send for the IoT devices linked to it, and any
   * other answers 404 as if it did not exist.
   */
  async function submitReadings(
    submission: IotDataSubmission,
    context: ActionContext,
    secret?: string,
    relayedBy?: string,
  ): Promise<IotDataSubmissionResult> {
    const { iotDeviceId, dataType } = submission;
    for (let attempt = 1; ; attempt += 1) {
      const device = await findDeviceForSubmission(db, iotDeviceId);
      try {
        if (!device || (relayedBy && !(await isLinkedToDevice(db, iotDeviceId, relayedBy)))) {
          throw new Refusal(404, serviceTexts.iotDeviceNotFound);
        }
        await admit(device, dataType, secret);
      } catch (error) {
        if (error instanceof Refusal) {
          countRefused('http', submission.data.length);
          throw error.toAppError();
        }
        throw error;
      }
      const rows = rowsOf(device, dataType, submission.data, context.caller?.userId ?? null);
      const unique = inIdOrder(rows);
      const answer = (stored: number, alertIds: string[]) => ({
        iotDeviceId,
        dataType,
        count: rows.length,
        duplicates: rows.length - stored,
        ids: rows.map((row) => row.id),
        alertIds,
      });
      const changes = { iotDeviceId, dataType, count: rows.length };

      // Most batches open no alert, whichever of their readings turn out to be new: they are written in one
      // statement (readings and audit row) that commits on its own, as MQTT batches are, and only if the
      // device is still the one admitted above; the change feed hears of it after.
      if (alertsForReadings(settings.bounds, dataType, unique, device).length === 0) {
        const written = await storeReadingsAlone(db, unique, [device], {
          resource: iotDataResource.name,
          changes: redactChanges(changes),
          actor: {
            userId: context.caller?.userId ?? null,
            subject: context.caller?.subject ?? null,
            ip: context.ip,
          },
          idsUpTo: MAX_IDS_IN_AUDIT,
        });
        // The device changed since it was read (a new secret, trust level or data types, or deleted):
        // nothing was written, and the batch is decided again on its row as it is now.
        if (written.stale.length && attempt < 5) continue;
        if (written.stale.length)
          throw new Error('The IoT device changed under every attempt to store a batch');
        announceAlone(context.caller?.userId ?? null);
        return countedHttp(answer(written.ids.length, []));
      }

      const written = await store.write(context, async (scope) => {
        const stored = new Set((await insertReadings(scope.tx, unique)).ids);
        const fresh = unique.filter((row) => stored.has(row.id));
        const alertIds = await openAlerts(scope, alertsForReadings(settings.bounds, dataType, fresh, device));
        await scope.audit({
          action: 'create',
          resource: iotDataResource.name,
          recordId: null,
          changes: {
            ...changes,
            stored: fresh.length,
            ...(fresh.length <= MAX_IDS_IN_AUDIT ? { ids: fresh.map((row) => row.id) } : {}),
          },
        });
        return answer(fresh.length, alertIds);
      });
      return countedHttp(written);
    }
  }

  /** A stored HTTP batch, counted once it has committed. */
  function countedHttp(result: IotDataSubmissionResult) {
    counts.http.stored += result.count - result.duplicates;
    counts.http.duplicates += result.duplicates;
    return result;
  }

  /**
   * Tells this process and the others of readings stored by one statement that committed on its own. The
   * readings are durable already: the message to the other processes is not waited for.
   */
  function announceAlone(actorUserId: string | null) {
    const change = {
      resource: iotDataResource.name,
      action: 'create',
      recordId: null,
      actorUserId,
      at: Date.now(),
    };
    store.changes.publish([change]);
    store.changes.relayCommitted(db, [change]).catch((error: unknown) => settings.onRelayError?.(error));
  }

  function countRefused(channel: keyof IngestionCounts, readings: number) {
    counts[channel].rejected += readings;
    counts[channel].rejectedMessages += 1;
  }

  /** Readings refused before they reach a device or a batch (malformed JSON, invalid readings). */
  function countInvalid(channel: keyof IngestionCounts, readings: number, wholeMessage: boolean) {
    counts[channel].rejected += readings;
    if (wholeMessage) counts[channel].rejectedMessages += 1;
  }

  /**
   * The devices MQTT batches were last admitted under, by hardware identifier, with their row version: a
   * stream of messages needs no lookup per batch. An entry is only a guess: the batch's insert checks each
   * device's version in the same statement and stores nothing when one changed (see insertReadings), and a
   * refusal is only decided on a fresh row. Any change to an IoT device in this process clears it at once.
   */
  const knownDevices = new Map<string, SubmittingDevice & DeviceVersion & { hardwareIdentifier: string }>();
  store.changes.subscribe((changes) => {
    if (changes.some((change) => change.resource === iotDevicesResource.name || change.resource === '*')) {
      knownDevices.clear();
    }
  });
  const KNOWN_DEVICES_MAX = 100_000;

  async function lookUpDevices(identifiers: string[]) {
    const found = await findDevicesByHardwareIdentifier(db, identifiers);
    if (knownDevices.size + found.length > KNOWN_DEVICES_MAX) knownDevices.clear();
    for (const identifier of identifiers) knownDevices.delete(identifier);
    for (const device of found) knownDevices.set(device.hardwareIdentifier, device);
  }

  /** Why a device may not send a message (a Refusal's message), or undefined when it may. */
  async function refusalOf(device: SubmittingDevice | undefined, message: IncomingReadings) {
    try {
      if (!device) throw new Refusal(404, serviceTexts.noIotDeviceWithHardwareId);
      await admit(device, message.dataType, message.secret);
      return undefined;
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      return error.message;
    }
  }

  /** The batch met a device that changed since it was admitted: nothing was written, it is decided again. */
  class StaleDevices extends Error {
    constructor(
      readonly ids: string[],
      readonly identifiers: string[] = [],
    ) {
      super('IoT devices changed while their readings were written');
    }
  }

  /**
   * Stores the readings of many MQTT messages in one transaction (one multi-row insert, the alerts they
   * open, one audit row). A message from an unknown device, of an unsupported type, or from a trusted
   * device without its secret is refused alone; the outcome of each message is answered in order. Throws
   * (storing nothing) when the database fails, so that no message is acknowledged.
   */
  async function ingestMessages(messages: IncomingReadings[]): Promise<IngestOutcome[]> {
    const identifiers = [...new Set(messages.map((message) => message.hardwareIdentifier))];
    // Read in this call: a refusal stands only on these.
    const fresh = new Set(identifiers.filter((identifier) => !knownDevices.has(identifier)));
    if (fresh.size) await lookUpDevices([...fresh]);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await writeMessages(messages, fresh);
      } catch (error) {
        // Devices that changed, or that would refuse a message on a remembered row, are read again and the
        // batch decided anew; a device changing under every attempt fails the batch (delivered again).
        if (!(error instanceof StaleDevices) || attempt === 5) throw error;
        const again = new Set(error.identifiers);
        for (const [identifier, device] of knownDevices) {
          if (error.ids.includes(device.id)) again.add(identifier);
        }
        for (const identifier of again) fresh.add(identifier);
        await lookUpDevices([...again]);
      }
    }
  }

  async function writeMessages(messages: IncomingReadings[], fresh: Set<string>): Promise<IngestOutcome[]> {
    const outcomes: IngestOutcome[] = [];
    const refused: number[] = [];
    const accepted: {
      index: number;
      device: SubmittingDevice & DeviceVersion;
      rows: ReadingRow[];
      dataType: IotDataType;
    }[] = [];
    for (const [index, message] of messages.entries()) {
      const device = knownDevices.get(message.hardwareIdentifier);
      const refusal = await refusalOf(device, message);
      if (refusal && !fresh.has(message.hardwareIdentifier)) {
        throw new StaleDevices([], [message.hardwareIdentifier]);
      }
      if (refusal || !device) {
        refused.push(message.readings.length);
        outcomes.push({ refused: refusal ?? 'No IoT device has this hardware identifier' });
        continue;
      }
      accepted.push({
        index,
        device,
        dataType: message.dataType,
        rows: rowsOf(device, message.dataType, message.readings, null),
      });
      outcomes.push({ stored: 0, duplicates: 0 });
    }
    const countRefusals = () => {
      for (const readings of refused) countRefused('mqtt', readings);
    };
    if (accepted.length === 0) {
      countRefusals();
      return outcomes;
    }

    const unique = inIdOrder(accepted.flatMap((entry) => entry.rows));
    const versions = [
      ...new Map(
        accepted.map(({ device }) => [device.id, { id: device.id, version: device.version }]),
      ).values(),
    ];
    const auditChanges = {
      channel: 'mqtt',
      messages: accepted.length,
      count: unique.length,
      devices: [...new Set(accepted.map((entry) => entry.device.id))].slice(0, MAX_IDS_IN_AUDIT),
    };
    /** Each message's outcome from the ids stored now; the alerts the fresh readings open. */
    const settle = (stored: Set<string>) => {
      const alerts: NewAlert[] = [];
      const claimed = new Set<string>();
      for (const entry of accepted) {
        // A reading repeated in two messages of one batch counts as stored once.
        const fresh = entry.rows.filter((row) => stored.has(row.id) && !claimed.has(row.id));
        for (const row of fresh) claimed.add(row.id);
        outcomes[entry.index] = { stored: fresh.length, duplicates: entry.rows.length - fresh.length };
        alerts.push(...alertsForReadings(settings.bounds, entry.dataType, fresh, entry.device));
      }
      return alerts;
    };
    // Most batches open no alert, whichever of their readings turn out to be new: they are written in one
    // statement (readings and audit row), which commits on its own; the change feed hears of it after.
    const mayAlert = accepted.some(
      (entry) => alertsForReadings(settings.bounds, entry.dataType, entry.rows, entry.device).length > 0,
    );
    if (!mayAlert) {
      const written = await storeReadingsAlone(db, unique, versions, {
        resource: iotDataResource.name,
        changes: redactChanges(auditChanges),
      });
      if (written.stale.length) throw new StaleDevices(written.stale);
      settle(new Set(written.ids));
      announceAlone(null);
    } else {
      await store.write({ caller: null, ip: null }, async (scope) => {
        const inserted = await insertReadings(scope.tx, unique, versions);
        if (inserted.stale.length) throw new StaleDevices(inserted.stale);
        const stored = new Set(inserted.ids);
        await openAlerts(scope, mergeBatchAlerts(settle(stored)));
        await scope.audit({
          action: 'create',
          resource: iotDataResource.name,
          recordId: null,
          changes: { ...auditChanges, stored: stored.size },
        });
      });
    }
    countRefusals();
    for (const outcome of outcomes) {
      if ('stored' in outcome) {
        counts.mqtt.stored += outcome.stored;
        counts.mqtt.duplicates += outcome.duplicates;
      }
    }
    return outcomes;
  }

  async function lastDataSubmission(
    iotDeviceId: string,
    dataType?: IotDataType,
  ): Promise<LastDataSubmission> {
    if (!(await findIotDeviceId(db, { id: iotDeviceId }))) throw notFound('IoT device');
    const row = await findLatestReading(db, iotDeviceId, dataType);
    return row ? { ...row, createdAt: row.createdAt.toISOString() } : null;
  }

  /**
   * One type of a device's readings over a period, cut into equal parts: a chart of a month draws every reading
   * of it at the size of a page (the parts that have readings). `within` narrows the readings summed up (the
   * care team's: those it may list, decision 109).
   */
  async function readingsSummary(
    iotDeviceId: string,
    query: ReadingsSummaryQuery,
    within?: SQL,
  ): Promise<ReadingsSummary> {
    if (!(await findIotDeviceId(db, { id: iotDeviceId }))) throw notFound('IoT device');
    return { dataType: query.dataType, ...(await summarizeReadings(db, iotDeviceId, query, within)) };
  }

  async function existsByHardwareIdentifier(hardwareIdentifier: string) {
    const id = await findIotDeviceId(db, { hardwareIdentifier });
    return id ? { exists: true, id } : { exists: false };
  }

  return {
    iotDevices,
    readings,
    submitReadings,
    ingestMessages,
    countInvalid,
    ingestionCounts: (): IngestionCounts => structuredClone(counts),
    lastDataSubmission,
    readingsSummary,
    existsByHardwareIdentifier,
  };
}

export type IotService = ReturnType<typeof createIotService>;
