// GET /api/users/logs: the audit log, newest first, with the list filters of every resource. Admins read all of
// it; everyone else only their own entries (the account page shows the user's last sign-in from it).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditListQuerySchema, auditListResponseSchema } from '@careplane/shared/audit/audit.contract';
import { errorBodySchema } from '@careplane/shared/common/http';
import type { Database } from '../../db/client.js';
import { requireCaller } from '../../plugins/auth.js';
import { listAuditLog } from './audit.service.js';

export async function auditModule(app: FastifyInstance, { db }: { db: Database }) {
  app.withTypeProvider<ZodTypeProvider>().get('/api/users/logs', {
    schema: {
      tags: ['audit'],
      summary: 'The audit log of every write, newest first (non-admins: their own entries)',
      querystring: auditListQuerySchema,
      response: {
        200: auditListResponseSchema,
        400: errorBodySchema,
        401: errorBodySchema,
        403: errorBodySchema,
      },
    },
    handler: async (request) => {
      const caller = requireCaller(request);
      return listAuditLog(db, request.query, caller.isAdmin ? undefined : caller.userId);
    },
  });
}
