// GET /api/health: answers without a token once the database answers.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { APP_VERSION } from '@careplane/shared/common/enums';
import type { DatabaseHandle } from '../../db/client.js';

const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  version: z.string(),
  database: z.enum(['pglite', 'postgres']),
  uptimeSeconds: z.number(),
});

export async function healthModule(app: FastifyInstance, { database }: { database: DatabaseHandle }) {
  app.withTypeProvider<ZodTypeProvider>().get('/api/health', {
    config: { public: true },
    schema: {
      tags: ['health'],
      summary: 'Liveness and database readiness',
      security: [],
      response: { 200: healthSchema, 503: healthSchema },
    },
    handler: async (_request, reply) => {
      const answer = {
        version: APP_VERSION,
        database: database.kind,
        uptimeSeconds: Math.round(process.uptime()),
      };
      try {
        await database.rawQuery('select 1');
        return { status: 'ok' as const, ...answer };
      } catch {
        return reply.status(503).send({ status: 'unavailable' as const, ...answer });
      }
    },
  });
}
