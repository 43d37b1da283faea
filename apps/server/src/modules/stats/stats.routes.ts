// GET /api/users/stats and /api/devices/charts (admin), GET /api/domains (anyone signed in).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  deviceChartsSchema,
  domainsSchema,
  statsEndpoints,
  userStatsSchema,
} from '@careplane/shared/stats/stats.contract';
import { accessRules, allow, requireAdmin } from '@/lib/caller.js';
import { errorResponses as errors } from '@/lib/http.js';
import type { StatsService } from './stats.service.js';

export async function statsModule(app: FastifyInstance, { service }: { service: StatsService }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(statsEndpoints.userStats, {
    onRequest: requireAdmin,
    config: { access: 'admin' },
    schema: {
      tags: ['users'],
      summary: 'Total users and new users per month for the last 12 months (UTC)',
      response: { 200: userStatsSchema, ...errors },
    },
    handler: async () => service.userStats(new Date()),
  });

  typed.get(statsEndpoints.deviceCharts, {
    onRequest: requireAdmin,
    config: { access: 'admin' },
    schema: {
      tags: ['devices'],
      summary: 'Total devices and devices reporting stats per hour for the last 24 hours',
      response: { 200: deviceChartsSchema, ...errors },
    },
    handler: async () => service.deviceCharts(new Date()),
  });

  typed.get(statsEndpoints.domains, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'signedIn' },
    schema: {
      tags: ['devices'],
      summary: 'The permitted device domains',
      response: { 200: domainsSchema, ...errors },
    },
    handler: async () => service.domains(),
  });
}
