// /api/command-centers: the generic resource (admins) and the command-center scoped reads (supervisors of a
// center, and admins).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema, listResponseSchema } from '@careplane/shared/common/http';
import {
  commandCenterEndpoints,
  commandCenterScopedListQuerySchema,
  commandCenterScopedReadQuerySchema,
} from '@careplane/shared/command-centers/command-centers.contract';
import {
  deviceJobSchema,
  deviceSchema,
  deviceStatSchema,
  workstationSchema,
} from '@careplane/shared/devices/devices.contract';
import { userSchema } from '@careplane/shared/users/users.contract';
import { alertSchema } from '@careplane/shared/alerts/alerts.contract';
import { requireCaller } from '../../lib/caller.js';
import { errorResponses as errors } from '../../lib/http.js';
import { registerResourceRoutes } from '../../lib/resources/routes.js';
import type { Store } from '../../lib/store.js';
import { createCommandCenterScopeService } from './command-center-scope.service.js';
import { createCommandCentersService } from './command-centers.service.js';

export async function commandCentersModule(app: FastifyInstance, { store }: { store: Store }) {
  const service = createCommandCentersService(store);
  const scope = createCommandCenterScopeService(store);
  registerResourceRoutes(app, service.commandCenters);

  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['command-centers'];
  // Before the query is read: only admins and users assigned to a command center use these calls (403).
  const requireSupervisor = async (request: FastifyRequest) => {
    await scope.supervisedCenters(requireCaller(request));
  };
  const list = { querystring: commandCenterScopedListQuerySchema, tags };
  const read = { querystring: commandCenterScopedReadQuerySchema, tags };

  typed.get(commandCenterEndpoints.devices, {
    onRequest: requireSupervisor,
    schema: {
      ...list,
      summary: "The devices of the caller's command centers",
      response: { 200: listResponseSchema(deviceSchema), ...errors },
    },
    handler: async (request) => scope.listDevices(requireCaller(request), request.query),
  });

  typed.get(`${commandCenterEndpoints.devices}/:id/stats`, {
    onRequest: requireSupervisor,
    schema: {
      ...list,
      params: idParamsSchema,
      summary: "A device's stats, newest first (the device in the caller's command centers)",
      response: { 200: listResponseSchema(deviceStatSchema), ...errors },
    },
    handler: async (request) =>
      scope.listDeviceStats(requireCaller(request), request.params.id, request.query),
  });

  typed.get(commandCenterEndpoints.workstations, {
    onRequest: requireSupervisor,
    schema: {
      ...list,
      summary: "The workstations of the caller's command centers (by their device)",
      response: { 200: listResponseSchema(workstationSchema), ...errors },
    },
    handler: async (request) => scope.listWorkstations(requireCaller(request), request.query),
  });

  typed.get(commandCenterEndpoints.users, {
    onRequest: requireSupervisor,
    schema: {
      ...list,
      summary:
        "The users of the caller's command centers: their staff, the users of their devices and the patients of their workstations",
      response: { 200: listResponseSchema(userSchema), ...errors },
    },
    handler: async (request) => scope.listUsers(requireCaller(request), request.query),
  });

  typed.get(commandCenterEndpoints.unassignedUsers, {
    onRequest: requireSupervisor,
    schema: {
      ...list,
      summary: 'Users that belong to no command center',
      response: { 200: listResponseSchema(userSchema), ...errors },
    },
    handler: async (request) => scope.listUnassignedUsers(requireCaller(request), request.query),
  });

  typed.get(`${commandCenterEndpoints.users}/:id`, {
    onRequest: requireSupervisor,
    schema: {
      ...read,
      params: idParamsSchema,
      summary: "A user of the caller's command centers",
      response: { 200: userSchema, ...errors },
    },
    handler: async (request) => scope.readUser(requireCaller(request), request.params.id, request.query),
  });

  typed.get(commandCenterEndpoints.jobs, {
    onRequest: requireSupervisor,
    schema: {
      ...list,
      summary: "The runner jobs of the devices of the caller's command centers",
      response: { 200: listResponseSchema(deviceJobSchema), ...errors },
    },
    handler: async (request) => scope.listJobs(requireCaller(request), request.query),
  });

  typed.get(commandCenterEndpoints.alerts, {
    onRequest: requireSupervisor,
    schema: {
      ...list,
      summary:
        "The alerts of the caller's command centers: of their users and of IoT devices linked to their devices",
      response: { 200: listResponseSchema(alertSchema), ...errors },
    },
    handler: async (request) => scope.listAlerts(requireCaller(request), request.query),
  });

  typed.get(`${commandCenterEndpoints.jobs}/:id`, {
    onRequest: requireSupervisor,
    schema: {
      ...read,
      params: idParamsSchema,
      summary: "A runner job of a device in the caller's command centers",
      response: { 200: deviceJobSchema, ...errors },
    },
    handler: async (request) => scope.readJob(requireCaller(request), request.params.id, request.query),
  });
}
