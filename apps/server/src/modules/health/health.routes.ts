// Health without a token: /api/health (the database answers: 200, else 503), /api/health/live (the process
// answers at all: a supervisor restarts it when not) and /api/health/ready (it should get traffic: the
// database answers and the process is not shutting down; a load balancer takes it out otherwise).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { APP_VERSION } from '@careplane/shared/common/enums';
import type { DatabaseHandle } from '@/db/client.js';

const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  version: z.string(),
  database: z.enum(['pglite', 'postgres']),
  uptimeSeconds: z.number(),
});
const liveSchema = z.object({ status: z.literal('ok'), uptimeSeconds: z.number() });
const readySchema = z.object({
  status: z.enum(['ready', 'unavailable', 'closing']),
  database: z.enum(['up', 'down']),
});

export async function healthModule(app: FastifyInstance, { database }: { database: DatabaseHandle }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const publicRoute = { public: true, access: 'public', deadline: 5_000 } as const;
  const databaseAnswers = () =>
    database.rawQuery('select 1').then(
      () => true,
      () => false,
    );
  // A close without a drain first (tests, SIGINT) is closing too, for the requests still being answered.
  app.addHook('preClose', async () => {
    app.lifecycle.draining = true;
  });

  typed.get('/api/health', {
    config: publicRoute,
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
      if (await databaseAnswers()) return { status: 'ok' as const, ...answer };
      return reply.status(503).send({ status: 'unavailable' as const, ...answer });
    },
  });

  typed.get('/api/health/live', {
    config: publicRoute,
    schema: {
      tags: ['health'],
      summary: 'Liveness: the process answers (it reads nothing)',
      security: [],
      response: { 200: liveSchema },
    },
    handler: async () => ({ status: 'ok' as const, uptimeSeconds: Math.round(process.uptime()) }),
  });

  typed.get('/api/health/ready', {
    config: publicRoute,
    schema: {
      tags: ['health'],
      summary: 'Readiness: the database answers and the process is not shutting down (else 503)',
      security: [],
      response: { 200: readySchema, 503: readySchema },
    },
    handler: async (_request, reply) => {
      const up = await databaseAnswers();
      const status = app.lifecycle.draining ? 'closing' : up ? 'ready' : 'unavailable';
      return reply
        .status(status === 'ready' ? 200 : 503)
        .send({ status, database: up ? ('up' as const) : ('down' as const) });
    },
  });
}
