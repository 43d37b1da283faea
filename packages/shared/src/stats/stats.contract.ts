// Dashboard figures: user and device series for the admin home, and the permitted device domains.
import { z } from 'zod';
import { seriesSchema } from '../common/http.ts';

/** Months in the users series, the current one last. */
export const USER_STATS_MONTHS = 12;
/** Hours in the device series, the current one last. */
export const DEVICE_CHART_HOURS = 24;

/**
 * `count`: all users; `labels`: the last 12 months as `YYYY-MM` (UTC), oldest first;
 * `data`: users created in each month, 0 where none.
 */
export const userStatsSchema = seriesSchema;
export type UserStats = z.infer<typeof userStatsSchema>;

/**
 * `count`: all client devices; `labels`: the start of each of the last 24 hours as an ISO 8601 instant
 * (`2026-11-05T13:00:00.000Z`), oldest first; `data`: distinct devices that sent stats in that hour.
 */
export const deviceChartsSchema = seriesSchema;
export type DeviceCharts = z.infer<typeof deviceChartsSchema>;

/** The domains a client device may belong to, in configuration order. */
export const domainsSchema = z.object({ items: z.array(z.string()) });
export type Domains = z.infer<typeof domainsSchema>;

export const statsEndpoints = {
  userStats: '/api/users/stats',
  deviceCharts: '/api/devices/charts',
  domains: '/api/domains',
} as const;
