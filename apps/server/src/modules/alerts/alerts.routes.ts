// /api/alerts, and acknowledging and closing an alert (with an Idempotency-Key when a phone kept the action).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  alertAcknowledgeSchema,
  alertCloseSchema,
  alertEndpoints,
  alertSchema,
} from '@careplane/shared/alerts/alerts.contract';
import { errorBodySchema, idParamsSchema } from '@careplane/shared/common/http';
import { requireAdmin } from '@/lib/caller.js';
import type { ActionContext } from '@/lib/audit.js';
import { actionContext, errorResponses, idempotencyKeyOf, sayReplayed } from '@/lib/http.js';
import { registerResourceRoutes } from '@/lib/resources/routes.js';
import { alertsResource } from './alerts.resource.js';
import type { AlertOutcome, AlertsService } from './alerts.service.js';

/** What an alert action's summary says of its Idempotency-Key (decision 107), here and for the care team. */
export const KEY_SUMMARY =
  'An Idempotency-Key header (a UUID) makes a repeat answer the first answer without acting twice, even once ' +
  'the alert is closed; the same key with another alert, action or closingData is a 422 (decision 107)';

/**
 * Runs an acknowledge or close for the request (its alert, body, caller and Idempotency-Key) and answers the
 * alert, said to be a key's repeat in `Idempotent-Replayed` when it is one; here and for the care team.
 */
export async function answerAlertAction<Body>(
  request: FastifyRequest & { params: { id: string }; body: Body },
  reply: FastifyReply,
  act: (id: string, body: Body, context: ActionContext, key: string | undefined) => Promise<AlertOutcome>,
) {
  const outcome = await act(
    request.params.id,
    request.body,
    actionContext(request),
    idempotencyKeyOf(request),
  );
  sayReplayed(reply, outcome.replayed);
  return outcome.alert;
}

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
        'tapped that long ago on a phone without a network (decision 105). ' +
        KEY_SUMMARY,
      params: idParamsSchema,
      body: alertAcknowledgeSchema.nullish(),
      response: { 200: alertSchema, ...errorResponses, 422: errorBodySchema },
    },
    handler: (request, reply) => answerAlertAction(request, reply, service.acknowledge),
  });

  typed.post(`${alertEndpoints.list}/:id/close`, {
    onRequest: requireAdmin,
    config: { access: 'admin' },
    schema: {
      tags: [alertsResource.name],
      summary:
        'Close an open alert with closingData; the caller becomes closedByUser; 409 when closed. ' +
        KEY_SUMMARY,
      params: idParamsSchema,
      body: alertCloseSchema,
      response: { 200: alertSchema, ...errorResponses, 422: errorBodySchema },
    },
    handler: (request, reply) => answerAlertAction(request, reply, service.close),
  });
}
