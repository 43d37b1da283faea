// A supervisor's view of their command centers (the scoped calls of spec §7): its users, devices, open alerts
// and jobs. Keys start with 'command-center' and the resource's name, so live events refresh them.
import { queryOptions } from '@tanstack/react-query';
import type { Alert } from '@careplane/shared/alerts/alerts.contract';
import type { ListResponse } from '@careplane/shared/common/http';
import { commandCenterEndpoints } from '@careplane/shared/command-centers/command-centers.contract';
import type { Device, DeviceJob } from '@careplane/shared/devices/devices.contract';
import type { User } from '@careplane/shared/users/users.contract';
import { api } from '@/lib/api-client.ts';

/** Rows each section shows (the newest first). */
export const VIEW_PAGE_SIZE = 50;

const root = 'command-center';

export const commandCenterViewQueries = {
  users: () =>
    queryOptions({
      queryKey: [root, 'users', 'list'],
      queryFn: ({ signal }) =>
        api.get<ListResponse<User>>(commandCenterEndpoints.users, {
          signal,
          query: { limit: VIEW_PAGE_SIZE, sort: 'lastName:asc' },
        }),
    }),
  devices: () =>
    queryOptions({
      queryKey: [root, 'devices', 'list'],
      queryFn: ({ signal }) =>
        api.get<ListResponse<Device>>(commandCenterEndpoints.devices, {
          signal,
          query: { limit: VIEW_PAGE_SIZE, sort: 'title:asc', relations: 'assignedUser' },
        }),
    }),
  openAlerts: () =>
    queryOptions({
      queryKey: [root, 'alerts', 'open'],
      queryFn: ({ signal }) =>
        api.get<ListResponse<Alert>>(commandCenterEndpoints.alerts, {
          signal,
          query: { limit: VIEW_PAGE_SIZE, filters: 'isActive~true', relations: 'user' },
        }),
    }),
  jobs: () =>
    queryOptions({
      queryKey: [root, 'device-jobs', 'list'],
      queryFn: ({ signal }) =>
        api.get<ListResponse<DeviceJob>>(commandCenterEndpoints.jobs, {
          signal,
          query: { limit: VIEW_PAGE_SIZE, relations: 'device' },
        }),
    }),
};
