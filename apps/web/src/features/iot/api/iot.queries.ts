// IoT devices: the query-options factory, the last data submission and readings over a period.
import { queryOptions } from '@tanstack/react-query';
import type { ListResponse } from '@careplane/shared/common/http';
import {
  iotDataEndpoints,
  iotDeviceEndpoints,
  iotEndpoints,
  type IotDataRecord,
  type IotDevice,
  type LastDataSubmission,
  type ReadingsSummary,
} from '@careplane/shared/iot/iot.contract';
import { api } from '@/lib/api-client.ts';
import { CHART_SUMMARY_PARTS } from '@/lib/resource-kit/charts/period-summary.ts';
import { ADMIN_QUERY_ROOT, createResourceQueries } from '@/lib/resource-kit/queries.ts';

export const iotDeviceQueries = createResourceQueries<IotDevice>('iot-devices', iotDeviceEndpoints);

/** Readings drawn one by one for one period and type, at most (the list's largest page). */
export const CHART_READINGS_LIMIT = 200;

/** Where a chart reads readings: the list of readings (filtered by device and type) and a device's summary. */
export interface ReadingEndpoints {
  list: string;
  summary: (iotDeviceId: string) => string;
}

/**
 * A device's readings over a period, and their summary, read from `endpoints` under the query key `root`. The
 * admin area reads the admin calls; the care team its command center's (decision 102).
 */
export function readingQueries(
  root: readonly unknown[],
  endpoints: ReadingEndpoints,
  options: { refetchInterval?: number } = {},
) {
  return {
    range: (deviceId: string, dataType: string, from: number, to: number) =>
      queryOptions({
        queryKey: [...root, 'range', deviceId, dataType, from, to],
        queryFn: ({ signal }) =>
          api.get<ListResponse<IotDataRecord>>(endpoints.list, {
            signal,
            query: {
              filters: [`iotDevice.id~${deviceId}`, `dataType~${dataType}`],
              from,
              to,
              sort: ['timestamp:desc'],
              limit: CHART_READINGS_LIMIT,
            },
          }),
        refetchInterval: options.refetchInterval,
      }),
    /** Every reading of the period summed up by the server, for a period with more than a page of them. */
    summary: (deviceId: string, dataType: string, from: number, to: number, enabled: boolean) =>
      queryOptions({
        queryKey: [...root, 'summary', deviceId, dataType, from, to],
        queryFn: ({ signal }) =>
          api.get<ReadingsSummary>(endpoints.summary(deviceId), {
            signal,
            query: { dataType, from, to, buckets: CHART_SUMMARY_PARTS },
          }),
        enabled,
        refetchInterval: options.refetchInterval,
      }),
  };
}

export type ReadingQueries = ReturnType<typeof readingQueries>;

const adminReadingsRoot = [...ADMIN_QUERY_ROOT, 'iot-device-data'] as const;

export const iotDataQueries = {
  all: adminReadingsRoot,
  last: (deviceId: string) =>
    queryOptions({
      queryKey: [...adminReadingsRoot, 'last', deviceId],
      queryFn: ({ signal }) =>
        api.get<LastDataSubmission>(iotEndpoints.lastDataSubmission(deviceId), { signal }),
      refetchInterval: 30_000,
    }),
  ...readingQueries(adminReadingsRoot, {
    list: iotDataEndpoints.list,
    summary: iotEndpoints.readingsSummary,
  }),
};
