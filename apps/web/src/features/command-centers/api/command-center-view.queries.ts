// A supervisor's view of their command centers (the scoped calls of spec §7): its users, devices, open alerts
// and jobs, and one patient's page (decision 102). Keys start with 'command-center' and the resource's name, so
// live events refresh them.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Alert } from '@careplane/shared/alerts/alerts.contract';
import type { ListResponse } from '@careplane/shared/common/http';
import { commandCenterEndpoints } from '@careplane/shared/command-centers/command-centers.contract';
import type { Device, DeviceJob } from '@careplane/shared/devices/devices.contract';
import type { IotDataRecord, IotDevice } from '@careplane/shared/iot/iot.contract';
import { isVitalSign, vitalSignsOf } from '@careplane/shared/iot/vital-signs';
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
  /** The open alerts of the centers, or of one person of them, newest first. */
  openAlerts: (page = 1, userId?: string) =>
    queryOptions({
      queryKey: [root, 'alerts', 'open', page, ...(userId ? [userId] : [])],
      placeholderData: keepPreviousData,
      queryFn: ({ signal }) =>
        api.get<ListResponse<Alert>>(commandCenterEndpoints.alerts, {
          signal,
          query: {
            ...pageOf(page),
            filters: ['isActive~true', ...(userId ? [`user.id~${userId}`] : [])],
            sort: 'timestamp:desc',
            relations: 'user,iotDevice,acknowledgedByUser',
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
  /** One person of the centers, with the devices assigned to them (their IoT devices may be linked to one). */
  user: (id: string) =>
    queryOptions({
      queryKey: [root, 'users', 'detail', id],
      queryFn: ({ signal }) =>
        api.get<User>(commandCenterEndpoints.user(id), { signal, query: { relations: 'assignedDevices' } }),
    }),
  /**
   * The IoT devices that measure a person: those assigned to them and those linked to their devices that are
   * assigned to nobody, oldest first (the order a person's devices keep from one visit to the next).
   */
  iotDevicesOf: (userId: string, deviceIds: readonly string[]) =>
    queryOptions({
      queryKey: [root, 'iot-devices', 'of', userId, deviceIds],
      queryFn: async ({ signal }) => {
        const list = (filter: string) =>
          api.get<ListResponse<IotDevice>>(commandCenterEndpoints.iotDevices, {
            signal,
            query: { filters: filter, sort: 'createdAt:asc', limit: 100 },
          });
        const [assigned, linked] = await Promise.all([
          list(`assignedUser.id~${userId}`),
          deviceIds.length ? list(`devices.id~${deviceIds.join(',')}`) : null,
        ]);
        // A device linked to the person's tablet but assigned to someone else measures that someone: it is
        // not drawn under this person's name.
        const unassigned = (linked?.items ?? []).filter((device) => device.assignedUserId === null);
        const byId = new Map<string, IotDevice>();
        for (const device of [...assigned.items, ...unassigned]) byId.set(device.id, device);
        // Those that measure vital signs first (the first is the one drawn): an alarm button after them.
        const measures = (device: IotDevice) => device.supportedDataTypes.some(isVitalSign);
        return [...byId.values()].sort((a, b) => Number(measures(b)) - Number(measures(a)));
      },
    }),
  /**
   * The newest reading of an IoT device, read again every 30 s (null: none yet): of its vital signs when it
   * measures any (not its battery), else of whatever it sends.
   */
  latestReading: (device: Pick<IotDevice, 'id' | 'supportedDataTypes'>) => {
    const vitalSigns = vitalSignsOf(device.supportedDataTypes);
    return queryOptions({
      queryKey: [root, 'iot-device-data', 'latest', device.id],
      queryFn: async ({ signal }) =>
        (
          await api.get<ListResponse<IotDataRecord>>(commandCenterEndpoints.readings, {
            signal,
            // One row, not counted: every refresh would count all of the device's readings.
            query: {
              filters: [
                `iotDevice.id~${device.id}`,
                ...(vitalSigns.length ? [`dataType~${vitalSigns.join(',')}`] : []),
              ],
              sort: 'timestamp:desc',
              limit: 1,
              count: 'false',
            },
          })
        ).items[0] ?? null,
      refetchInterval: 30_000,
    });
  },
};
