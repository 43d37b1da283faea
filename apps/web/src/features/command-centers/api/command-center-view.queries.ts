// A supervisor's view of their command centers (the scoped calls of spec §7): its users, devices, open alerts
// and jobs. Keys start with 'command-center' and the resource's name, so live events refresh them.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Alert } from '@careplane/shared/alerts/alerts.contract';
import type { ListResponse } from '@careplane/shared/common/http';
import { commandCenterEndpoints } from '@careplane/shared/command-centers/command-centers.contract';
import type { Device, DeviceJob } from '@careplane/shared/devices/devices.contract';
import type { User } from '@careplane/shared/users/users.contract';
import { api } from '@/lib/api-client.ts';

/** Rows each section shows at once; a section of more has pages of its own. */
export const VIEW_PAGE_SIZE = 10;

const pageOf = (page: number) => ({ limit: VIEW_PAGE_SIZE, offset: (page - 1) * VIEW_PAGE_SIZE });

const root = 'command-center';

export const commandCenterViewQueries = {
  users: (page = 1) =>
    queryOptions({
      queryKey: [root, 'users', 'list', page],
      placeholderData: keepPreviousData,
      queryFn: ({ signal }) =>
        api.get<ListResponse<User>>(commandCenterEndpoints.users, {
          signal,
          query: { ...pageOf(page), sort: 'lastName:asc' },
        }),
    }),
  devices: (page = 1) =>
    queryOptions({
      queryKey: [root, 'devices', 'list', page],
      placeholderData: keepPreviousData,
      queryFn: ({ signal }) =>
        api.get<ListResponse<Device>>(commandCenterEndpoints.devices, {
          signal,
          query: { ...pageOf(page), sort: 'title:asc', relations: 'assignedUser' },
        }),
    }),
  openAlerts: (page = 1) =>
    queryOptions({
      queryKey: [root, 'alerts', 'open', page],
      placeholderData: keepPreviousData,
      queryFn: ({ signal }) =>
        api.get<ListResponse<Alert>>(commandCenterEndpoints.alerts, {
          signal,
          query: {
            ...pageOf(page),
            filters: 'isActive~true',
            sort: 'timestamp:desc',
            relations: 'user,iotDevice',
          },
        }),
    }),
  jobs: (page = 1) =>
    queryOptions({
      queryKey: [root, 'device-jobs', 'list', page],
      placeholderData: keepPreviousData,
      queryFn: ({ signal }) =>
        api.get<ListResponse<DeviceJob>>(commandCenterEndpoints.jobs, {
          signal,
          query: { ...pageOf(page), relations: 'device' },
        }),
    }),
};
