// /api/alerts, and acknowledging and closing an alert.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  alertAcknowledgeSchema,
  alertCloseSchema,
  alertEndpoints,
  alertSchema,
} from '@careplane/shared/alerts/alerts.contract';
import { idParamsSchema } from '@careplane/shared/common/http';
import { requireAdmin } from '@/lib/caller.js';
import { actionContext, errorResponses } from '@/lib/http.js';
import { registerResourceRoutes } from '@/lib/resources/routes.js';
import { alertsResource } from './alerts.resource.js';
import type { AlertsService } from './alerts.service.js';

export async function alertsModule(app: FastifyInstance, { service }: { service: AlertsService }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  registerResourceRoutes(app, service.alerts);

  typed.post(`${alertEndpoints.list}/:id/acknowledge`, {
    onRequest: requireAdmin,
    config: { access: 'admin' },
    schema: {
      tags: [alertsResource.name],
      summary:
        'Acknowledge an open alert (it stays open); 409 when closed or already acknowledged. keptForSeconds: ' +
        'tapped that long ago on a phone without a network (decision 105)',
      params: idParamsSchema,
      body: alertAcknowledgeSchema.nullish(),
      response: { 200: alertSchema, ...errorResponses },
    },
    handler: async (request) => service.acknowledge(request.params.id, request.body, actionContext(request)),
  });

  typed.post(`${alertEndpoints.list}/:id/close`, {
    onRequest: requireAdmin,
    config: { access: 'admin' },
    schema: {
      tags: [alertsResource.name],
      summary: 'Close an open alert with closingData; the caller becomes closedByUser; 409 when closed',
      params: idParamsSchema,
      body: alertCloseSchema,
      response: { 200: alertSchema, ...errorResponses },
    },
    handler: async (request) => service.close(request.params.id, request.body, actionContext(request)),
  });
}
