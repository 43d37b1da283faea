// The admin home's series: new users per month and devices reporting per hour.
import { queryOptions } from '@tanstack/react-query';
import { statsEndpoints, type DeviceCharts, type UserStats } from '@careplane/shared/stats/stats.contract';
import { api } from '@/lib/api-client.ts';
import { ADMIN_QUERY_ROOT } from '@/lib/resource-kit/queries.ts';

export const statsQueries = {
  all: [...ADMIN_QUERY_ROOT, 'stats'] as const,
  users: () =>
    queryOptions({
      queryKey: [...statsQueries.all, 'users'],
      queryFn: ({ signal }) => api.get<UserStats>(statsEndpoints.userStats, { signal }),
    }),
  devices: () =>
    queryOptions({
      queryKey: [...statsQueries.all, 'devices'],
      queryFn: ({ signal }) => api.get<DeviceCharts>(statsEndpoints.deviceCharts, { signal }),
      refetchInterval: 5 * 60_000,
    }),
};
