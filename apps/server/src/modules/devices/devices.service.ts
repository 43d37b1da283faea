// Devices module: the four generic resources with their rules, plus device tokens, the latest stat and
// workstation patients. Answers are typed by the contract; the route's response schema checks them on the way out.
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DEFAULT_JOB_PURPOSE, processStatuses, type ProcessStatus } from '@careplane/shared/common/enums';
import type { ListResponse } from '@careplane/shared/common/http';
import {
  DEVICE_TOKEN_PREFIX,
  adminJobStatuses,
  canTransitionJob,
  type DeviceCreate,
  linkedIotDeviceSchema,
  type LinkedIotDevice,
  type DeviceCreated,
  type DeviceStat,
  type DeviceStatsQuery,
  type DeviceStatsSummary,
  type DeviceStatsSummaryQuery,
  type DeviceStatCreate,
  type DeviceStatSubmission,
  type Workstation,
} from '@careplane/shared/devices/devices.contract';
import type { ActionContext } from '@/lib/audit.js';
import type { DeviceCaller } from '@/lib/caller.js';
import { badRequest, conflict, notFound, serviceTexts } from '@/lib/errors.js';
import { shapeRow } from '@/lib/resources/relations.js';
import { createResourceService } from '@/lib/resources/service.js';
import type { Store } from '@/lib/store.js';
import { missingUserIds } from '@/modules/users/users.service.js';
import type { Alert } from '@careplane/shared/alerts/alerts.contract';
import { createDeviceJobsRunner, type RunnerOptions } from './device-jobs.service.js';
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

/** The most open alerts a device is answered (newest first). */
export const MAX_DEVICE_ALERTS = 200;

const linkedIotDevicesSchema = z.array(linkedIotDeviceSchema);

export function createDevicesService(store: Store, runnerOptions: RunnerOptions = {}) {
  const { db } = store;
  const devices = createResourceService(store, devicesResource, {
    check: async (executor, plan, _mode, existing) => {
      // An IoT device that does not allow several device relationships stays with the device it has.
      const taken = await repository.findIotDevicesLinkedElsewhere(
        executor,
        (existing?.id as string | undefined) ?? null,
        plan.links.iotDevices ?? [],
      );
      if (taken.length) {
        throw conflict(serviceTexts.iotDeviceLinkedElsewhere(taken));
      }
    },
  });
  const stats = createResourceService(store, deviceStatsResource);
  const workstations = createResourceService(store, workstationsResource);
  const jobs = createResourceService(store, deviceJobsResource, {
    derive: (body, mode) => {
      // A cancelled job is held by no fetch or lease any more.
      if (mode === 'update') return { leaseExpiresAt: null };
      if (!('commands' in body)) return {};
      return {
        purpose: body.purpose.trim() || DEFAULT_JOB_PURPOSE,
        ...(body.notBefore ? { notBefore: new Date(body.notBefore) } : {}),
      };
    },
    check: async (_executor, plan, mode, existing) => {
      if (mode === 'create' && !plan.values.createdByUserId) {
        throw badRequest(serviceTexts.createdByUserRequired, [
          { path: 'createdByUser', message: 'The caller has no user record: sign in once first' },
        ]);
      }
      if (mode === 'update' && existing) {
        // The row is locked by the update, so of two conflicting transitions one sees the other's result.
        // An admin only cancels; the other steps are the device's own (decision 025).
        const from = existing.status as ProcessStatus;
        const to = plan.values.status as ProcessStatus;
        if (!adminJobStatuses.includes(to)) {
          throw conflict(serviceTexts.jobStatusOfDevice(to));
        }
        if (!processStatuses.includes(from) || !canTransitionJob(from, to)) {
          throw conflict(serviceTexts.jobCannotBecome(from, to));
        }
      }
    },
  });

  const runner = createDeviceJobsRunner(store, jobs, runnerOptions);

  /** A device posts its own stats: the server sets the time and the device (decisions §7). */
  async function submitStat(deviceId: string, body: DeviceStatSubmission, context: ActionContext) {
    const id = await store.write(context, (scope) =>
      // Without a boot time the column stays empty (the admin's full create requires one).
      stats.createWithin(scope, { ...body, timestamp: Date.now(), device: deviceId } as DeviceStatCreate),
    );
    return stats.read(id, { relations: [] });
  }

  /** The open alerts of the device's assigned user and IoT devices, newest first. */
  async function deviceAlerts(deviceId: string): Promise<Alert[]> {
    const rows = await repository.findOpenAlertsOfDevice(db, deviceId, MAX_DEVICE_ALERTS);
    return rows.map((row) => shapeRow('alerts', row, {}) as Alert);
  }

  /** The enabled device a presented device token belongs to, for the auth plugin. */
  async function findDeviceByToken(token: string): Promise<DeviceCaller | undefined> {
    const tokenHash = hashDeviceToken(token);
    const device = await repository.findEnabledDeviceByTokenHash(db, tokenHash);
    return device && { ...device, tokenHash };
  }

  /** The IoT devices whose readings the calling device may relay. */
  const linkedIotDevices = async (deviceId: string): Promise<LinkedIotDevice[]> =>
    // The trust level is text in the database: the contract's schema narrows it.
    linkedIotDevicesSchema.parse(await repository.findLinkedIotDevices(db, deviceId));

  /** The calling device's own record. */
  const me = (deviceId: string) => devices.read(deviceId, { relations: [] });

  /** Creates a device with a fresh token; the answer is the only place the token appears. */
  async function createDevice(body: DeviceCreate, context: ActionContext): Promise<DeviceCreated> {
    const token = generateDeviceToken();
    const created = await store.write(context, (scope) =>
      devices.createWithin(scope, body, { tokenHash: hashDeviceToken(token) }),
    );
    return { ...(await devices.read(created, { relations: [] })), token };
  }

  /** Issues a new token for a device; the old one stops working at once. */
  async function rekeyDevice(id: string, context: ActionContext) {
    const token = generateDeviceToken();
    const tokenHash = hashDeviceToken(token);
    await store.write(context, async (scope) => {
      if (!(await repository.setDeviceTokenHash(scope.tx, id, tokenHash))) throw notFound('Device');
      await scope.audit({
        action: 'rekey',
        resource: devicesResource.name,
        recordId: id,
        changes: { tokenHash },
      });
    });
    return { id, token };
  }

  /** The newest stat of a device; null when it has sent none; 404 when there is no such device. */
  async function lastStatsSubmission(deviceId: string): Promise<DeviceStat | null> {
    if (!(await repository.deviceExists(db, deviceId))) throw notFound('Device');
    const row = await repository.findLatestStat(db, deviceId);
    return row ? (shapeRow('deviceStats', row, {}) as DeviceStat) : null;
  }

  /** Every stat of a period, summed up for the device's charts. */
  async function statsSummary(deviceId: string, query: DeviceStatsSummaryQuery): Promise<DeviceStatsSummary> {
    if (!(await repository.deviceExists(db, deviceId))) throw notFound('Device');
    return repository.summarizeStats(db, deviceId, query);
  }

  /** The stats list; `timestamps` narrows it to the stats taken at exactly those times. */
  async function listStats(query: DeviceStatsQuery): Promise<ListResponse<DeviceStat>> {
    const { timestamps, ...criteria } = query;
    const filters = timestamps ? [...criteria.filters, `timestamp~${timestamps}`] : criteria.filters;
    return stats.list({ ...criteria, filters }, null);
  }

  async function changeWorkstationPatient(
    workstationId: string,
    userId: string,
    change: 'add' | 'remove',
    context: ActionContext,
  ): Promise<Workstation> {
    await store.write(context, async (scope) => {
      const { tx } = scope;
      if (!(await repository.lockWorkstation(tx, workstationId))) throw notFound('Workstation');
      if ((await missingUserIds(tx, [userId])).length) throw notFound('User');
      const changed =
        change === 'add'
          ? await repository.addWorkstationPatient(tx, workstationId, userId)
          : await repository.removeWorkstationPatient(tx, workstationId, userId);
      // A repeated add or remove changes nothing and is not logged.
      if (changed) {
        await scope.audit({
          action: 'update',
          resource: workstationsResource.name,
          recordId: workstationId,
          changes: { assignedPatients: { [change]: userId } },
        });
      }
    });
    return workstations.read(workstationId, { relations: ['assignedPatients'] });
  }

  return {
    devices,
    stats,
    workstations,
    jobs,
    runner,
    submitStat,
    deviceAlerts,
    linkedIotDevices,
    findDeviceByToken,
    me,
    createDevice,
    rekeyDevice,
    lastStatsSubmission,
    statsSummary,
    listStats,
    addWorkstationPatient: (workstationId: string, userId: string, context: ActionContext) =>
      changeWorkstationPatient(workstationId, userId, 'add', context),
    removeWorkstationPatient: (workstationId: string, userId: string, context: ActionContext) =>
      changeWorkstationPatient(workstationId, userId, 'remove', context),
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
