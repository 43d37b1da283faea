// /api/command-centers (the generic resource) and the care actions on a user beside it (spec §7).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  commandCenterEndpoints,
  deviceRebootRequestedSchema,
  userAlertCreatedSchema,
  userIdParamsSchema,
} from '@careplane/shared/command-centers/command-centers.contract';
import { requireAdmin } from '../../lib/caller.js';
import { actionContext, errorResponses as errors } from '../../lib/http.js';
import { registerResourceRoutes } from '../../lib/resources/routes.js';
import type { CommandCentersService } from './command-centers.service.js';

export async function commandCentersModule(
  app: FastifyInstance,
  { service }: { service: CommandCentersService },
) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  registerResourceRoutes(app, service.commandCenters);

  typed.post(`${commandCenterEndpoints.list}/users/:userId/alert`, {
    onRequest: requireAdmin,
    schema: {
      tags: ['command-centers'],
      summary:
        "Send an alert to a user: an active alert for the user and a notify job on each of the user's devices",
      params: userIdParamsSchema,
      response: { 201: userAlertCreatedSchema, ...errors },
    },
    handler: async (request, reply) => {
      const created = await service.alertUser(request.params.userId, actionContext(request));
      return reply.status(201).send(created);
    },
  });

  typed.post(`${commandCenterEndpoints.list}/users/:userId/device/reboot`, {
    onRequest: requireAdmin,
    schema: {
      tags: ['command-centers'],
      summary: "Request a reboot of the user's devices: a reboot job on each; 409 when the user has none",
      params: userIdParamsSchema,
      response: { 201: deviceRebootRequestedSchema, ...errors },
    },
    handler: async (request, reply) => {
      const requested = await service.rebootUserDevices(request.params.userId, actionContext(request));
      return reply.status(201).send(requested);
    },
  });
}
