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

export const iotDataQueries = {
  all: [...ADMIN_QUERY_ROOT, 'iot-device-data'] as const,
  last: (deviceId: string) =>
    queryOptions({
      queryKey: [...iotDataQueries.all, 'last', deviceId],
      queryFn: ({ signal }) =>
        api.get<LastDataSubmission>(iotEndpoints.lastDataSubmission(deviceId), { signal }),
      refetchInterval: 30_000,
    }),
  range: (deviceId: string, dataType: string, from: number, to: number) =>
    queryOptions({
      queryKey: [...iotDataQueries.all, 'range', deviceId, dataType, from, to],
      queryFn: ({ signal }) =>
        api.get<ListResponse<IotDataRecord>>(iotDataEndpoints.list, {
          signal,
          query: {
            filters: [`iotDevice.id~${deviceId}`, `dataType~${dataType}`],
            from,
            to,
            sort: ['timestamp:desc'],
            limit: CHART_READINGS_LIMIT,
          },
        }),
    }),
  /** Every reading of the period summed up by the server, for a period with more than a page of them. */
  summary: (deviceId: string, dataType: string, from: number, to: number, enabled: boolean) =>
    queryOptions({
      queryKey: [...iotDataQueries.all, 'summary', deviceId, dataType, from, to],
      queryFn: ({ signal }) =>
        api.get<ReadingsSummary>(iotEndpoints.readingsSummary(deviceId), {
          signal,
          query: { dataType, from, to, buckets: CHART_SUMMARY_PARTS },
        }),
      enabled,
    }),
};
