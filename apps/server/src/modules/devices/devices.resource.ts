// Client devices, device stats, workstations and runner jobs as generic resources: filters, sorts, write rules.
import { desc, sql } from 'drizzle-orm';
import {
  DEFAULT_JOB_PURPOSE,
  deviceRoles,
  processStatuses,
  type ProcessStatus,
} from '@careplane/shared/common/enums';
import {
  canTransitionJob,
  deviceCreateSchema,
  deviceJobSchema,
  deviceJobSubmissionSchema,
  deviceJobUpdateSchema,
  deviceSchema,
  deviceStatCreateSchema,
  deviceStatSchema,
  deviceStatUpdateSchema,
  deviceUpdateSchema,
  workstationCreateSchema,
  workstationSchema,
  workstationUpdateSchema,
} from '@careplane/shared/devices/devices.contract';
import {
  deviceRunnerJobs,
  deviceStats,
  devices,
  iotDeviceDevices,
  workstationDevices,
  workstationPatients,
  workstations,
} from '../../db/schema/index.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { columnFilter, kinds, linkFilter } from '../../lib/resources/filters.js';
import type { ResourceDefinition } from '../../lib/resources/resource.js';
import { findIotDevicesLinkedElsewhere } from './devices.repository.js';

export const devicesResource: ResourceDefinition = {
  name: 'devices',
  entity: 'devices',
  table: devices,
  idColumn: devices.id,
  path: '/api/devices',
  schemas: { create: deviceCreateSchema, update: deviceUpdateSchema, item: deviceSchema },
  references: { assignedUser: 'assignedUserId', commandCenter: 'commandCenterId' },
  links: {
    iotDevices: {
      table: iotDeviceDevices,
      ownerKey: 'deviceId',
      ownerColumn: iotDeviceDevices.deviceId,
      targetKey: 'iotDeviceId',
    },
  },
  createdByColumn: 'createdByUserId',
  check: async (executor, plan, _mode, existing) => {
    // An IoT device that does not allow several device relationships stays with the device it has.
    const iotDeviceIds = plan.links.iotDevices ?? [];
    const taken = await findIotDevicesLinkedElsewhere(
      executor,
      (existing?.id as string | undefined) ?? null,
      iotDeviceIds,
    );
    if (taken.length) {
      throw conflict(`IoT device already linked to another client device: ${taken.join(', ')}`);
    }
  },
  query: {
    idColumn: devices.id,
    defaultSort: [desc(devices.createdAt)],
    filters: {
      id: columnFilter(devices.id, kinds.uuid),
      title: columnFilter(devices.title, kinds.text),
      isEnabled: columnFilter(devices.isEnabled, kinds.boolean),
      role: columnFilter(devices.role, kinds.enum(deviceRoles)),
      localRoles: columnFilter(devices.localRoles, kinds.enum(deviceRoles), { list: true }),
      'assignedUser.id': columnFilter(devices.assignedUserId, kinds.uuid),
      'commandCenter.id': columnFilter(devices.commandCenterId, kinds.uuid),
      'createdByUser.id': columnFilter(devices.createdByUserId, kinds.uuid),
      'workstation.id': linkFilter(workstations, workstations.deviceId, workstations.id, devices.id),
      'iotDevices.id': linkFilter(
        iotDeviceDevices,
        iotDeviceDevices.deviceId,
        iotDeviceDevices.iotDeviceId,
        devices.id,
      ),
    },
    like: {
      id: devices.id,
      title: devices.title,
      'location.title': sql`${devices.location}->>'title'`,
      'assignedUser.id': devices.assignedUserId,
      'commandCenter.id': devices.commandCenterId,
    },
    sorts: {
      createdAt: devices.createdAt,
      updatedAt: devices.updatedAt,
      title: devices.title,
      role: devices.role,
      isEnabled: devices.isEnabled,
    },
  },
};

export const deviceStatsResource: ResourceDefinition = {
  name: 'device-stats',
  entity: 'deviceStats',
  table: deviceStats,
  idColumn: deviceStats.id,
  path: '/api/devices/stats',
  schemas: { create: deviceStatCreateSchema, update: deviceStatUpdateSchema, item: deviceStatSchema },
  references: { device: 'deviceId' },
  query: {
    idColumn: deviceStats.id,
    defaultSort: [desc(deviceStats.timestamp)],
    timeColumn: deviceStats.timestamp,
    filters: {
      id: columnFilter(deviceStats.id, kinds.uuid),
      'device.id': columnFilter(deviceStats.deviceId, kinds.uuid),
      timestamp: columnFilter(deviceStats.timestamp, kinds.number),
      firmware: columnFilter(deviceStats.firmware, kinds.text),
    },
    like: { id: deviceStats.id, 'device.id': deviceStats.deviceId, firmware: deviceStats.firmware },
    sorts: {
      timestamp: deviceStats.timestamp,
      bootTime: deviceStats.bootTime,
      createdAt: deviceStats.createdAt,
    },
  },
};

export const workstationsResource: ResourceDefinition = {
  name: 'workstations',
  entity: 'workstations',
  table: workstations,
  idColumn: workstations.id,
  path: '/api/devices/workstations',
  schemas: { create: workstationCreateSchema, update: workstationUpdateSchema, item: workstationSchema },
  references: { device: 'deviceId' },
  links: {
    assignedPatients: {
      table: workstationPatients,
      ownerKey: 'workstationId',
      ownerColumn: workstationPatients.workstationId,
      targetKey: 'userId',
    },
    assignedWorkstations: {
      table: workstationDevices,
      ownerKey: 'workstationId',
      ownerColumn: workstationDevices.workstationId,
      targetKey: 'deviceId',
    },
  },
  createdByColumn: 'createdByUserId',
  query: {
    idColumn: workstations.id,
    defaultSort: [desc(workstations.createdAt)],
    filters: {
      id: columnFilter(workstations.id, kinds.uuid),
      title: columnFilter(workstations.title, kinds.text),
      'device.id': columnFilter(workstations.deviceId, kinds.uuid),
      'assignedPatients.id': linkFilter(
        workstationPatients,
        workstationPatients.workstationId,
        workstationPatients.userId,
        workstations.id,
      ),
      'assignedWorkstations.id': linkFilter(
        workstationDevices,
        workstationDevices.workstationId,
        workstationDevices.deviceId,
        workstations.id,
      ),
      'createdByUser.id': columnFilter(workstations.createdByUserId, kinds.uuid),
    },
    like: { id: workstations.id, title: workstations.title, 'device.id': workstations.deviceId },
    sorts: {
      createdAt: workstations.createdAt,
      updatedAt: workstations.updatedAt,
      title: workstations.title,
    },
  },
};

export const deviceJobsResource: ResourceDefinition = {
  name: 'device-jobs',
  entity: 'deviceRunnerJobs',
  table: deviceRunnerJobs,
  idColumn: deviceRunnerJobs.id,
  path: '/api/devices/jobs',
  schemas: { create: deviceJobSubmissionSchema, update: deviceJobUpdateSchema, item: deviceJobSchema },
  references: { device: 'deviceId' },
  createdByColumn: 'createdByUserId',
  derive: (body, mode) => {
    if (mode !== 'create') return {};
    const purpose = typeof body.purpose === 'string' ? body.purpose.trim() : '';
    return {
      purpose: purpose || DEFAULT_JOB_PURPOSE,
      ...(typeof body.notBefore === 'string' ? { notBefore: new Date(body.notBefore) } : {}),
    };
  },
  check: async (_executor, plan, mode, existing) => {
    if (mode === 'create' && !plan.values.createdByUserId) {
      throw badRequest('createdByUser is required', [
        { path: 'createdByUser', message: 'The caller has no user record: sign in once first' },
      ]);
    }
    if (mode === 'update' && existing) {
      // The row is locked by the update, so of two conflicting transitions one sees the other's result.
      const from = existing.status as ProcessStatus;
      const to = plan.values.status as ProcessStatus;
      if (!processStatuses.includes(from) || !canTransitionJob(from, to)) {
        throw conflict(`A job in status ${from} cannot become ${to}`);
      }
    }
  },
  query: {
    idColumn: deviceRunnerJobs.id,
    defaultSort: [desc(deviceRunnerJobs.createdAt)],
    filters: {
      id: columnFilter(deviceRunnerJobs.id, kinds.uuid),
      status: columnFilter(deviceRunnerJobs.status, kinds.enum(processStatuses)),
      purpose: columnFilter(deviceRunnerJobs.purpose, kinds.text),
      'device.id': columnFilter(deviceRunnerJobs.deviceId, kinds.uuid),
      'createdByUser.id': columnFilter(deviceRunnerJobs.createdByUserId, kinds.uuid),
    },
    like: {
      id: deviceRunnerJobs.id,
      purpose: deviceRunnerJobs.purpose,
      commands: deviceRunnerJobs.commands,
      'device.id': deviceRunnerJobs.deviceId,
    },
    sorts: {
      createdAt: deviceRunnerJobs.createdAt,
      updatedAt: deviceRunnerJobs.updatedAt,
      notBefore: deviceRunnerJobs.notBefore,
      status: deviceRunnerJobs.status,
      purpose: deviceRunnerJobs.purpose,
    },
  },
};
