// Client devices, device stats, workstations and runner jobs as generic resources: tables, contract schemas,
// list specs bound to SQL.
import { sql } from 'drizzle-orm';
import {
  deviceCreateSchema,
  deviceEndpoints,
  deviceJobEndpoints,
  deviceJobListSpec,
  deviceJobSchema,
  deviceJobSubmissionSchema,
  deviceJobUpdateSchema,
  deviceListSpec,
  deviceSchema,
  deviceStatCreateSchema,
  deviceStatEndpoints,
  deviceStatListSpec,
  deviceStatSchema,
  deviceStatUpdateSchema,
  deviceUpdateSchema,
  workstationCreateSchema,
  workstationEndpoints,
  workstationListSpec,
  workstationSchema,
  workstationUpdateSchema,
} from '@careplane/shared/devices/devices.contract';
import { deviceRunnerJobs, deviceStats, devices, workstations } from '@/db/schema/index.js';
import {
  deviceColumns,
  deviceJobColumns,
  workstationColumns,
} from '@careplane/shared/devices/devices.columns';

import { defineResource } from '@/lib/resources/definition.js';
import { bindListSpec, column, link } from '@/lib/resources/filters.js';

export const devicesResource = defineResource({
  name: 'devices',
  label: 'Device',
  entity: 'devices',
  table: devices,
  idColumn: devices.id,
  path: deviceEndpoints.list,
  schemas: { create: deviceCreateSchema, update: deviceUpdateSchema, item: deviceSchema },
  references: { assignedUser: 'assignedUserId', commandCenter: 'commandCenterId' },
  createdByColumn: 'createdByUserId',
  csv: { columns: deviceColumns },
  list: {
    spec: deviceListSpec,
    query: bindListSpec(deviceListSpec, {
      idColumn: devices.id,
      filters: {
        id: column(devices.id),
        title: column(devices.title),
        isEnabled: column(devices.isEnabled),
        role: column(devices.role),
        localRoles: column(devices.localRoles),
        'assignedUser.id': column(devices.assignedUserId),
        'commandCenter.id': column(devices.commandCenterId),
        'createdByUser.id': column(devices.createdByUserId),
        'workstation.id': link(workstations, workstations.deviceId, workstations.id, devices.id),
      },
      search: {
        id: devices.id,
        title: devices.title,
        'location.title': sql`${devices.location}->>'title'`,
        'assignedUser.id': devices.assignedUserId,
        'commandCenter.id': devices.commandCenterId,
      },
      sort: {
        createdAt: devices.createdAt,
        updatedAt: devices.updatedAt,
        title: devices.title,
        role: devices.role,
        isEnabled: devices.isEnabled,
      },
    }),
  },
});

export const deviceStatsResource = defineResource({
  name: 'device-stats',
  label: 'Device stat',
  entity: 'deviceStats',
  table: deviceStats,
  idColumn: deviceStats.id,
  path: deviceStatEndpoints.list,
  schemas: { create: deviceStatCreateSchema, update: deviceStatUpdateSchema, item: deviceStatSchema },
  references: { device: 'deviceId' },
  list: {
    spec: deviceStatListSpec,
    query: bindListSpec(deviceStatListSpec, {
      idColumn: deviceStats.id,
      time: deviceStats.timestamp,
      filters: {
        id: column(deviceStats.id),
        'device.id': column(deviceStats.deviceId),
        timestamp: column(deviceStats.timestamp),
        firmware: column(deviceStats.firmware),
      },
      search: { id: deviceStats.id, 'device.id': deviceStats.deviceId, firmware: deviceStats.firmware },
      sort: {
        timestamp: deviceStats.timestamp,
        bootTime: deviceStats.bootTime,
        createdAt: deviceStats.createdAt,
      },
    }),
  },
});

export const workstationsResource = defineResource({
  name: 'workstations',
  label: 'Workstation',
  entity: 'workstations',
  table: workstations,
  idColumn: workstations.id,
  path: workstationEndpoints.list,
  schemas: { create: workstationCreateSchema, update: workstationUpdateSchema, item: workstationSchema },
  references: { device: 'deviceId' },
  createdByColumn: 'createdByUserId',
  csv: { columns: workstationColumns },
  list: {
    spec: workstationListSpec,
    query: bindListSpec(workstationListSpec, {
      idColumn: workstations.id,
      filters: {
        id: column(workstations.id),
        title: column(workstations.title),
        'device.id': column(workstations.deviceId),
        'createdByUser.id': column(workstations.createdByUserId),
      },
      search: { id: workstations.id, title: workstations.title, 'device.id': workstations.deviceId },
      sort: {
        createdAt: workstations.createdAt,
        updatedAt: workstations.updatedAt,
        title: workstations.title,
      },
    }),
  },
});

export const deviceJobsResource = defineResource({
  name: 'device-jobs',
  label: 'Device job',
  entity: 'deviceRunnerJobs',
  table: deviceRunnerJobs,
  idColumn: deviceRunnerJobs.id,
  path: deviceJobEndpoints.list,
  schemas: { create: deviceJobSubmissionSchema, update: deviceJobUpdateSchema, item: deviceJobSchema },
  references: { device: 'deviceId' },
  createdByColumn: 'createdByUserId',
  csv: { columns: deviceJobColumns },
  list: {
    spec: deviceJobListSpec,
    query: bindListSpec(deviceJobListSpec, {
      idColumn: deviceRunnerJobs.id,
      filters: {
        id: column(deviceRunnerJobs.id),
        status: column(deviceRunnerJobs.status),
        purpose: column(deviceRunnerJobs.purpose),
        'device.id': column(deviceRunnerJobs.deviceId),
        'createdByUser.id': column(deviceRunnerJobs.createdByUserId),
      },
      search: {
        id: deviceRunnerJobs.id,
        purpose: deviceRunnerJobs.purpose,
        commands: deviceRunnerJobs.commands,
        'device.id': deviceRunnerJobs.deviceId,
      },
      sort: {
        createdAt: deviceRunnerJobs.createdAt,
        updatedAt: deviceRunnerJobs.updatedAt,
        notBefore: deviceRunnerJobs.notBefore,
        status: deviceRunnerJobs.status,
        purpose: deviceRunnerJobs.purpose,
      },
    }),
  },
});
