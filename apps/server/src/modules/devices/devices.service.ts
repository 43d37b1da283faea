// Devices module: the four generic resources plus device tokens, the latest stat and workstation patients.
// Answers are typed by the contract; the route's response schema checks them on the way out.
import { createHash, randomBytes } from 'node:crypto';
import type { ListResponse } from '@careplane/shared/common/http';
import {
  DEVICE_TOKEN_PREFIX,
  type Device,
  type DeviceCreated,
  type DeviceStat,
  type DeviceStatsQuery,
  type Workstation,
} from '@careplane/shared/devices/devices.contract';
import type { Database } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { shapeRow } from '../../lib/resources/relations.js';
import { createResourceService } from '../../lib/resources/resource.js';
import { audit, type ActionContext } from '../audit/audit.service.js';
import * as repository from './devices.repository.js';
import {
  deviceJobsResource,
  deviceStatsResource,
  devicesResource,
  workstationsResource,
} from './devices.resource.js';

/** A new device token: shown once, stored only as its hash. */
export const generateDeviceToken = () => `${DEVICE_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;

/** The stored form of a device token (hex sha-256); a presented token is looked up by this value. */
export const hashDeviceToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export function createDevicesService(db: Database) {
  const devices = createResourceService(db, devicesResource);
  const stats = createResourceService(db, deviceStatsResource);
  const workstations = createResourceService(db, workstationsResource);
  const jobs = createResourceService(db, deviceJobsResource);

  /** Creates a device with a fresh token; the answer is the only place the token appears. */
  async function createDevice(body: Record<string, unknown>, context: ActionContext): Promise<DeviceCreated> {
    const token = generateDeviceToken();
    const created = (await devices.create({ ...body, tokenHash: hashDeviceToken(token) }, context)) as Device;
    return { ...created, token };
  }

  /** Issues a new token for a device; the old one stops working at once. */
  async function rekeyDevice(id: string, context: ActionContext) {
    const token = generateDeviceToken();
    const tokenHash = hashDeviceToken(token);
    await db.transaction(async (tx) => {
      if (!(await repository.setDeviceTokenHash(tx, id, tokenHash))) throw notFound('device');
      await audit(tx, context, 'rekey', devicesResource.name, id, { tokenHash });
    });
    return { id, token };
  }

  /** The newest stat of a device; null when it has sent none; 404 when there is no such device. */
  async function lastStatsSubmission(deviceId: string): Promise<DeviceStat | null> {
    if (!(await repository.deviceExists(db, deviceId))) throw notFound('device');
    const row = await repository.findLatestStat(db, deviceId);
    return row ? (shapeRow('deviceStats', row, {}) as DeviceStat) : null;
  }

  /** The stats list; `timestamps` narrows it to the stats taken at exactly those times. */
  async function listStats(query: DeviceStatsQuery): Promise<ListResponse<DeviceStat>> {
    const { timestamps, ...criteria } = query;
    const filters = timestamps ? [...criteria.filters, `timestamp~${timestamps}`] : criteria.filters;
    return (await stats.list({ ...criteria, filters })) as ListResponse<DeviceStat>;
  }

  async function changeWorkstationPatient(
    workstationId: string,
    userId: string,
    change: 'add' | 'remove',
    context: ActionContext,
  ): Promise<Workstation> {
    await db.transaction(async (tx) => {
      if (!(await repository.lockWorkstation(tx, workstationId))) throw notFound('workstation');
      if (!(await repository.userExists(tx, userId))) throw notFound('user');
      const changed =
        change === 'add'
          ? await repository.addWorkstationPatient(tx, workstationId, userId)
          : await repository.removeWorkstationPatient(tx, workstationId, userId);
      // A repeated add or remove changes nothing and is not logged.
      if (changed) {
        await audit(tx, context, 'update', workstationsResource.name, workstationId, {
          assignedPatients: { [change]: userId },
        });
      }
    });
    return (await workstations.read(workstationId, { relations: ['assignedPatients'] })) as Workstation;
  }

  return {
    devices,
    stats,
    workstations,
    jobs,
    createDevice,
    rekeyDevice,
    lastStatsSubmission,
    listStats,
    addWorkstationPatient: (workstationId: string, userId: string, context: ActionContext) =>
      changeWorkstationPatient(workstationId, userId, 'add', context),
    removeWorkstationPatient: (workstationId: string, userId: string, context: ActionContext) =>
      changeWorkstationPatient(workstationId, userId, 'remove', context),
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
