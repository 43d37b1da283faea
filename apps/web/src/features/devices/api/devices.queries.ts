// Client devices, workstations and device jobs: their query-options factories, a device's stats over a
// period, promotion, a new device token, a workstation's patients and cancelling a job.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListResponse } from '@careplane/shared/common/http';
import {
  deviceEndpoints,
  deviceJobEndpoints,
  deviceStatEndpoints,
  workstationEndpoints,
  type Device,
  type DeviceJob,
  type DeviceStat,
  type DeviceStatsSummary,
  type DeviceTokenIssued,
  type Workstation,
} from '@careplane/shared/devices/devices.contract';
import { DEFAULT_STATS_LIMIT } from '@careplane/shared/common/enums';
import { api } from '@/lib/api-client.ts';
import { CHART_SUMMARY_PARTS } from '@/lib/resource-kit/charts/period-summary.ts';
import { ADMIN_QUERY_ROOT, createResourceQueries, invalidateResource } from '@/lib/resource-kit/queries.ts';

export const deviceQueries = createResourceQueries<Device>('devices', deviceEndpoints);
export const workstationQueries = createResourceQueries<Workstation>('workstations', workstationEndpoints);
export const deviceJobQueries = createResourceQueries<DeviceJob>('device-jobs', deviceJobEndpoints);

/** At most this many stats are drawn for a period (the list's largest page). */
export const CHART_STATS_LIMIT = 200;

export const deviceStatQueries = {
  all: [...ADMIN_QUERY_ROOT, 'device-stats'] as const,
  /** The newest stats of a device (spec §7: 5 by default). */
  recent: (deviceId: string, limit = DEFAULT_STATS_LIMIT) =>
    queryOptions({
      queryKey: [...deviceStatQueries.all, 'recent', deviceId, limit],
      queryFn: ({ signal }) =>
        api.get<ListResponse<DeviceStat>>(deviceStatEndpoints.list, {
          signal,
          query: { filters: [`device.id~${deviceId}`], limit },
        }),
      refetchInterval: 60_000,
    }),
  /** The stats of a device in a period, newest first. */
  range: (deviceId: string, from: number, to: number) =>
    queryOptions({
      queryKey: [...deviceStatQueries.all, 'range', deviceId, from, to],
      queryFn: ({ signal }) =>
        api.get<ListResponse<DeviceStat>>(deviceStatEndpoints.list, {
          signal,
          query: { filters: [`device.id~${deviceId}`], from, to, limit: CHART_STATS_LIMIT },
        }),
    }),
  /** Every stat of the period summed up by the server, for a period with more than a page of them. */
  summary: (deviceId: string, from: number, to: number, enabled: boolean) =>
    queryOptions({
      queryKey: [...deviceStatQueries.all, 'summary', deviceId, from, to],
      queryFn: ({ signal }) =>
        api.get<DeviceStatsSummary>(deviceEndpoints.statsSummary(deviceId), {
          signal,
          query: { from, to, buckets: CHART_SUMMARY_PARTS },
        }),
      enabled,
    }),
};

export function usePromoteDevice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: string }) =>
      api.patch<Device>(deviceEndpoints.item(id), { localRoles: [role] }),
    onSuccess: () => invalidateResource(client, 'devices'),
  });
}

/** A new device token: the old one stops working; the answer shows the new one once. */
export function useRekeyDevice() {
  return useMutation({
    mutationFn: (id: string) => api.post<DeviceTokenIssued>(deviceEndpoints.token(id)),
  });
}

/** Assigns a patient (a user) to a workstation, or removes one. */
export function useWorkstationPatient() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patientId, action }: { id: string; patientId: string; action: 'add' | 'remove' }) =>
      api.post<Workstation>(
        action === 'add' ? workstationEndpoints.addPatient(id) : workstationEndpoints.removePatient(id),
        { id: patientId },
      ),
    onSuccess: () =>
      Promise.all([invalidateResource(client, 'workstations'), invalidateResource(client, 'users')]),
  });
}

/** An admin cancels a job the device has not started (NEW or ACCEPTED → CANCELLED). */
export function useCancelJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.patch<DeviceJob>(deviceJobEndpoints.item(id), { status: 'CANCELLED' }),
    onSuccess: () => invalidateResource(client, 'device-jobs'),
  });
}
