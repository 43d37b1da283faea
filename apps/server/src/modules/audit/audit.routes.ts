// GET /api/users/logs: the audit log, newest first, with the list filters of every resource. Admins read all of
// it; everyone else only their own entries.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  auditEndpoints,
  auditListQuerySchema,
  auditListResponseSchema,
} from '@careplane/shared/audit/audit.contract';
import { accessRules, allow, requireCaller } from '@/lib/caller.js';
import { errorResponses } from '@/lib/http.js';
import type { AuditService } from './audit.service.js';

export async function auditModule(app: FastifyInstance, { service }: { service: AuditService }) {
  app.withTypeProvider<ZodTypeProvider>().get(auditEndpoints.list, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'signedIn' },
    schema: {
      tags: ['audit'],
      summary: 'The audit log of every write, newest first (non-admins: their own entries)',
      querystring: auditListQuerySchema,
      response: { 200: auditListResponseSchema, ...errorResponses },
    },
    handler: async (request) => service.list(request.query, requireCaller(request)),
  });
}
