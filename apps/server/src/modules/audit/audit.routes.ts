// GET /api/users/logs: the audit log for admins, newest first, with the list filters of every resource.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditListQuerySchema, auditListResponseSchema } from '@careplane/shared/audit/audit.contract';
import { errorBodySchema } from '@careplane/shared/common/http';
import type { Database } from '../../db/client.js';
import { requireAdmin } from '../../plugins/auth.js';
import { listAuditLog } from './audit.service.js';

export async function auditModule(app: FastifyInstance, { db }: { db: Database }) {
  app.withTypeProvider<ZodTypeProvider>().get('/api/users/logs', {
    preHandler: requireAdmin,
    schema: {
      tags: ['audit'],
      summary: 'The audit log of every write, newest first',
      querystring: auditListQuerySchema,
      response: {
        200: auditListResponseSchema,
        400: errorBodySchema,
        401: errorBodySchema,
        403: errorBodySchema,
      },
    },
    handler: async (request) => listAuditLog(db, request.query),
  });
}
