// IoT devices and readings: the generic resources with their rules (connection secrets, device links),
// submissions (a batch of readings in one transaction, alerts opened with it), latest reading, exists check.
import { createHash } from 'node:crypto';
import { canonicalJson } from '@careplane/shared/common/canonical-json';
import type { IotDataType } from '@careplane/shared/common/enums';
import {
  HEART_RATE_BOUNDS,
  connectionSecretIssues,
  isHeartRateOutOfBounds,
  type IotDataSubmission,
  type IotDataSubmissionResult,
  type LastDataSubmission,
} from '@careplane/shared/iot/iot.contract';
import type { ActionContext } from '../../lib/audit.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { createResourceService } from '../../lib/resources/service.js';
import type { Store } from '../../lib/store.js';
import { openAlerts, type NewAlert } from '../alerts/alerts.service.js';
import { iotDataResource, iotDevicesResource } from './iot.resource.js';
import {
  countDeviceLinks,
  findDeviceForSubmission,
  findIotDeviceId,
  findLatestReading,
  insertReadings,
  type ReadingRow,
} from './iot.repository.js';
import { hashConnectionSecret } from './iot.secrets.js';

type Reading = Record<string, unknown> & { timestamp: number };

const TIMESTAMP_SPACE = 2 ** 48;

/**
 * The id of a reading follows from what it is: the device, the type and the reading itself. A retried
 * submission therefore names the same records and stores nothing twice, with or without a client key.
 * Layout (UUID version 8): 48 bits of the reading's timestamp, so ids sort by reading time, then 74 bits
 * of SHA-256 over the canonical reading.
 */
export function readingRecordId(iotDeviceId: string, dataType: string, reading: Reading): string {
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(Math.trunc(reading.timestamp) % TIMESTAMP_SPACE, 0, 6);
  const digest = createHash('sha256')
    .update(canonicalJson([iotDeviceId.toLowerCase(), dataType, reading]))
    .digest();
  digest.copy(bytes, 6, 0, 10);
  bytes[6] = 0x80 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const MAX_IDS_IN_AUDIT = 100;

/** Alerts opened by readings stored now: one per `alert` reading, one per batch of out-of-bounds heart rates. */
export function alertsForReadings(
  dataType: IotDataType,
  rows: ReadingRow[],
  device: { id: string; assignedUserId: string | null },
): NewAlert[] {
  const base = { iotDeviceId: device.id, userId: device.assignedUserId };
  if (dataType === 'alert') {
    return rows.map((row) => ({
      ...base,
      timestamp: row.timestamp,
      data: { reason: 'alert_reading', dataType, readingId: row.id, reading: row.data },
    }));
  }
  if (dataType === 'heart_rate') {
    const outOfBounds = rows.filter((row) => isHeartRateOutOfBounds(row.data.rate as number));
    const first = outOfBounds[0];
    if (!first) return [];
    const rates = outOfBounds.map((row) => row.data.rate as number);
    return [
      {
        ...base,
        timestamp: first.timestamp,
        data: {
          reason: 'heart_rate_out_of_bounds',
          dataType,
          bounds: HEART_RATE_BOUNDS,
          count: outOfBounds.length,
          minRate: Math.min(...rates),
          maxRate: Math.max(...rates),
          readingIds: outOfBounds.slice(0, MAX_IDS_IN_AUDIT).map((row) => row.id),
          reading: first.data,
        },
      },
    ];
  }
  return [];
}

export function createIotService(store: Store) {
  const { db } = store;

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
      if (issues.length) throw badRequest('Invalid trust level and connection secret', issues);

      const allowMultiple = (values.allowMultipleDeviceRelationships ??
        existing?.allowMultipleDeviceRelationships ??
        false) as boolean;
      if (allowMultiple) return;
      const linked =
        links.devices?.length ?? (existing ? await countDeviceLinks(executor, existing.id as string) : 0);
      if (linked > 1) {
        throw badRequest('This IoT device may be linked to one device only', [
          { path: 'devices', message: 'At most one device unless allowMultipleDeviceRelationships is true' },
        ]);
      }
    },
  });

  const readings = createResourceService(store, iotDataResource);

  /** Stores a batch all-or-nothing in one transaction, with the alerts it opens. */
  async function submitReadings(
    submission: IotDataSubmission,
    context: ActionContext,
  ): Promise<IotDataSubmissionResult> {
    const { iotDeviceId, dataType } = submission;
    const readings = submission.data as Reading[];
    const createdByUserId = context.caller?.userId ?? null;
    const rows: ReadingRow[] = readings.map((reading) => ({
      id: readingRecordId(iotDeviceId, dataType, reading),
      timestamp: reading.timestamp,
      dataType,
      data: reading,
      iotDeviceId,
      createdByUserId,
    }));
    // In id order, so concurrent batches that share readings take their row locks in one order.
    const unique = [...new Map(rows.map((row) => [row.id, row])).values()].sort((a, b) =>
      a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
    );

    return store.write(context, async (scope) => {
      const { tx } = scope;
      const device = await findDeviceForSubmission(tx, iotDeviceId);
      if (!device) throw notFound('IoT device');
      if (device.supportedDataTypes.length && !device.supportedDataTypes.includes(dataType)) {
        throw badRequest(`This IoT device does not send ${dataType} readings`, [
          {
            path: 'dataType',
            message: `Not among the device's supported data types: ${device.supportedDataTypes.join(', ')}`,
          },
        ]);
      }
      const stored = new Set(await insertReadings(tx, unique));
      const fresh = unique.filter((row) => stored.has(row.id));
      const alertIds = await openAlerts(scope, alertsForReadings(dataType, fresh, device));
      await scope.audit({
        action: 'create',
        resource: iotDataResource.name,
        recordId: null,
        changes: {
          iotDeviceId,
          dataType,
          count: rows.length,
          stored: fresh.length,
          ...(fresh.length <= MAX_IDS_IN_AUDIT ? { ids: fresh.map((row) => row.id) } : {}),
        },
      });
      return {
        iotDeviceId,
        dataType,
        count: rows.length,
        duplicates: rows.length - fresh.length,
        ids: rows.map((row) => row.id),
        alertIds,
      };
    });
  }

  async function lastDataSubmission(
    iotDeviceId: string,
    dataType?: IotDataType,
  ): Promise<LastDataSubmission> {
    if (!(await findIotDeviceId(db, { id: iotDeviceId }))) throw notFound('IoT device');
    const row = await findLatestReading(db, iotDeviceId, dataType);
    return row ? { ...row, createdAt: row.createdAt.toISOString() } : null;
  }

  async function existsByHardwareIdentifier(hardwareIdentifier: string) {
    const id = await findIotDeviceId(db, { hardwareIdentifier });
    return id ? { exists: true, id } : { exists: false };
  }

  return { iotDevices, readings, submitReadings, lastDataSubmission, existsByHardwareIdentifier };
}

export type IotService = ReturnType<typeof createIotService>;
