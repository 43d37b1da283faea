// IoT submissions (a batch of readings in one transaction, alerts opened with it), latest reading, exists check.
import { createHash } from 'node:crypto';
import type { IotDataType } from '@careplane/shared/common/enums';
import {
  HEART_RATE_BOUNDS,
  isHeartRateOutOfBounds,
  type IotDataSubmission,
  type IotDataSubmissionResult,
  type LastDataSubmission,
} from '@careplane/shared/iot/iot.contract';
import type { Database } from '../../db/client.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { openAlerts, type NewAlert } from '../alerts/alerts.service.js';
import { audit, type ActionContext } from '../audit/audit.service.js';
import { IOT_DATA_RESOURCE_NAME } from './iot.resource.js';
import {
  findDeviceForSubmission,
  findIotDeviceId,
  findLatestReading,
  insertReadings,
  type ReadingRow,
} from './iot.repository.js';

type Reading = Record<string, unknown> & { timestamp: number };

/** JSON with object keys sorted at every level: equal readings give equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

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

export function createIotService(db: Database) {
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

    return db.transaction(async (tx) => {
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
      const alertIds = await openAlerts(tx, context, alertsForReadings(dataType, fresh, device));
      await audit(tx, context, 'create', IOT_DATA_RESOURCE_NAME, null, {
        iotDeviceId,
        dataType,
        count: rows.length,
        stored: fresh.length,
        ...(fresh.length <= MAX_IDS_IN_AUDIT ? { ids: fresh.map((row) => row.id) } : {}),
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

  return { submitReadings, lastDataSubmission, existsByHardwareIdentifier };
}

export type IotService = ReturnType<typeof createIotService>;
