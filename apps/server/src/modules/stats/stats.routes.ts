// GET /api/users/stats and /api/devices/charts (admin), GET /api/domains (anyone signed in).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@careplane/shared/common/http';
import { deviceChartsSchema, domainsSchema, userStatsSchema } from '@careplane/shared/stats/stats.contract';
import type { Database } from '../../db/client.js';
import { requireAdmin, requireCaller } from '../../plugins/auth.js';
import { createStatsService } from './stats.service.js';

const errors = { 401: errorBodySchema, 403: errorBodySchema };

export async function statsModule(
  app: FastifyInstance,
  { db, deviceDomains }: { db: Database; deviceDomains: readonly string[] },
) {
  const service = createStatsService(db, { deviceDomains });
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get('/api/users/stats', {
    preHandler: requireAdmin,
    schema: {
      tags: ['users'],
      summary: 'Total users and new users per month for the last 12 months (UTC)',
      response: { 200: userStatsSchema, ...errors },
    },
    handler: async () => service.userStats(new Date()),
  });

  typed.get('/api/devices/charts', {
    preHandler: requireAdmin,
    schema: {
      tags: ['devices'],
      summary: 'Total devices and devices reporting stats per hour for the last 24 hours',
      response: { 200: deviceChartsSchema, ...errors },
    },
    handler: async () => service.deviceCharts(new Date()),
  });

  typed.get('/api/domains', {
    preHandler: async (request) => {
      requireCaller(request);
    },
    schema: {
      tags: ['devices'],
      summary: 'The permitted device domains',
      response: { 200: domainsSchema, 401: errorBodySchema },
    },
    handler: async () => service.domains(),
  });
}
