// /api/command-centers: the generic resource (admins), the command-center scoped reads, the care actions on
// a user (spec §7: supervisors of a center for its own records, and admins) and on the centers' alerts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema, idParamsSchema, listResponseSchema } from '@careplane/shared/common/http';
import {
  commandCenterEndpoints,
  commandCenterScopedListQuerySchema,
  commandCenterScopedReadQuerySchema,
  deviceRebootRequestedSchema,
  userAlertCreatedSchema,
  userAlertSchema,
  userIdParamsSchema,
} from '@careplane/shared/command-centers/command-centers.contract';
import {
  deviceJobSchema,
  deviceSchema,
  deviceStatSchema,
  workstationSchema,
} from '@careplane/shared/devices/devices.contract';
import { userSchema } from '@careplane/shared/users/users.contract';
import {
  alertAcknowledgeSchema,
  alertCloseSchema,
  alertSchema,
} from '@careplane/shared/alerts/alerts.contract';
import {
  iotDataRecordSchema,
  iotDeviceSchema,
  readingsSummaryQuerySchema,
  readingsSummarySchema,
} from '@careplane/shared/iot/iot.contract';
import { requireCaller } from '@/lib/caller.js';
import { asAnswer } from '@/lib/response-serializer.js';
import { actionContext, errorResponses as errors } from '@/lib/http.js';
import { registerResourceRoutes } from '@/lib/resources/routes.js';
import { answerAlertAction, KEY_SUMMARY } from '@/modules/alerts/alerts.routes.js';
import type { AlertsService } from '@/modules/alerts/alerts.service.js';
import type { IotService } from '@/modules/iot/iot.service.js';
import type { CommandCenterScopeService } from './command-center-scope.service.js';
import type { CommandCentersService } from './command-centers.service.js';

export async function commandCentersModule(
  app: FastifyInstance,
  {
    service,
    scope,
    alerts,
    iot,
  }: {
    service: CommandCentersService;
    scope: CommandCenterScopeService;
    alerts: AlertsService;
    iot: IotService;
  },
) {
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
    config: { access: 'careTeam' },
    schema: {
      ...list,
      summary: "The devices of the caller's command centers",
      response: { 200: listResponseSchema(deviceSchema), ...errors },
    },
    handler: async (request) => asAnswer(await scope.listDevices(requireCaller(request), request.query)),
  });

  typed.get(`${commandCenterEndpoints.devices}/:id/stats`, {
    onRequest: requireSupervisor,
    config: { access: 'careTeam' },
    schema: {
      ...list,
      params: idParamsSchema,
      summary: "A device's stats, newest first (the device in the caller's command centers)",
      response: { 200: listResponseSchema(deviceStatSchema), ...errors },
    },
    handler: async (request) =>
      asAnswer(await scope.listDeviceStats(requireCaller(request), request.params.id, request.query)),
  });

  typed.get(commandCenterEndpoints.workstations, {
    onRequest: requireSupervisor,
    config: { access: 'careTeam' },
    schema: {
      ...list,
      summary: "The workstations of the caller's command centers (by their device)",
      response: { 200: listResponseSchema(workstationSchema), ...errors },
    },
    handler: async (request) => asAnswer(await scope.listWorkstations(requireCaller(request), request.query)),
  });

  typed.get(commandCenterEndpoints.users, {
    onRequest: requireSupervisor,
    config: { access: 'careTeam' },
    schema: {
      ...list,
      summary:
        "The users of the caller's command centers: their staff, the users of their devices and the patients of their workstations",
      response: { 200: listResponseSchema(userSchema), ...errors },
    },
    handler: async (request) => asAnswer(await scope.listUsers(requireCaller(request), request.query)),
  });

  typed.get(commandCenterEndpoints.unassignedUsers, {
    onRequest: requireSupervisor,
    config: { access: 'careTeam' },
    schema: {
      ...list,
      summary: 'Patients that belong to no command center: the people a supervisor may take into care',
      response: { 200: listResponseSchema(userSchema), ...errors },
    },
    handler: async (request) =>
      asAnswer(await scope.listUnassignedUsers(requireCaller(request), request.query)),
  });

  typed.get(`${commandCenterEndpoints.users}/:id`, {
    onRequest: requireSupervisor,
    config: { access: 'careTeam' },
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
    config: { access: 'careTeam' },
    schema: {
      ...list,
      summary: "The runner jobs of the devices of the caller's command centers",
      response: { 200: listResponseSchema(deviceJobSchema), ...errors },
    },
    handler: async (request) => asAnswer(await scope.listJobs(requireCaller(request), request.query)),
  });

  typed.get(commandCenterEndpoints.alerts, {
    onRequest: requireSupervisor,
    config: { access: 'careTeam' },
    schema: {
      ...list,
      summary:
        "The alerts of the caller's command centers: of their users and of IoT devices linked to their devices",
      response: { 200: listResponseSchema(alertSchema), ...errors },
    },
    handler: async (request) => asAnswer(await scope.listAlerts(requireCaller(request), request.query)),
  });

  typed.get(`${commandCenterEndpoints.jobs}/:id`, {
    onRequest: requireSupervisor,
    config: { access: 'careTeam' },
    schema: {
      ...read,
      params: idParamsSchema,
      summary: "A runner job of a device in the caller's command centers",
      response: { 200: deviceJobSchema, ...errors },
    },
    handler: async (request) => scope.readJob(requireCaller(request), request.params.id, request.query),
  });

  // The care team reads its patients' vital signs (decision 102): the IoT devices of its centers' users and
  // those linked to its devices and assigned to nobody, and their readings; another center's device answers 404
  // or is not listed.
  typed.get(commandCenterEndpoints.iotDevices, {
    onRequest: requireSupervisor,
    config: { access: 'careTeam' },
    schema: {
      ...list,
      summary:
        "The IoT devices of the caller's command centers: of their users, and linked to their devices and assigned to nobody",
      response: { 200: listResponseSchema(iotDeviceSchema), ...errors },
    },
    handler: async (request) => asAnswer(await scope.listIotDevices(requireCaller(request), request.query)),
  });

  typed.get(commandCenterEndpoints.readings, {
    onRequest: requireSupervisor,
    config: { access: 'careTeam' },
    schema: {
      ...list,
      summary:
        "The readings of the IoT devices of the caller's command centers (the list of readings' query)",
      response: { 200: listResponseSchema(iotDataRecordSchema), ...errors },
    },
    handler: async (request) => asAnswer(await scope.listReadings(requireCaller(request), request.query)),
  });

  typed.get(`${commandCenterEndpoints.iotDevices}/:id/readings-summary`, {
    onRequest: requireSupervisor,
    config: { access: 'careTeam' },
    schema: {
      tags,
      summary:
        "One type of readings of an IoT device of the caller's command centers between two moments, cut into equal periods",
      params: idParamsSchema,
      querystring: readingsSummaryQuerySchema,
      response: { 200: readingsSummarySchema, ...errors },
    },
    handler: async (request) => {
      const within = await scope.assertIotDeviceInScope(requireCaller(request), request.params.id);
      return iot.readingsSummary(request.params.id, request.query, within);
    },
  });

  // The care team acts on its centers' alerts as an admin does on any (decision 079): the same rules (a
  // closed alert is a 409, the caller is named), an alert of another center a 404.
  typed.post(`${commandCenterEndpoints.alerts}/:id/acknowledge`, {
    onRequest: requireSupervisor,
    config: { access: 'careTeam' },
    schema: {
      tags,
      summary:
        "Acknowledge an open alert of the caller's command centers (it stays open); 409 when closed or already " +
        `acknowledged. ${KEY_SUMMARY}`,
      params: idParamsSchema,
      body: alertAcknowledgeSchema.nullish(),
      response: { 200: alertSchema, ...errors, 422: errorBodySchema },
    },
    handler: async (request, reply) => {
      await scope.assertAlertInScope(requireCaller(request), request.params.id);
      return answerAlertAction(request, reply, alerts.acknowledge);
    },
  });

  typed.post(`${commandCenterEndpoints.alerts}/:id/close`, {
    onRequest: requireSupervisor,
    config: { access: 'careTeam' },
    schema: {
      tags,
      summary:
        "Close an open alert of the caller's command centers with closingData; the caller becomes closedByUser; " +
        `409 when closed. ${KEY_SUMMARY}`,
      params: idParamsSchema,
      body: alertCloseSchema,
      response: { 200: alertSchema, ...errors, 422: errorBodySchema },
    },
    handler: async (request, reply) => {
      await scope.assertAlertInScope(requireCaller(request), request.params.id);
      return answerAlertAction(request, reply, alerts.close);
    },
  });

  // Care actions on a user: admins for anyone, a supervisor for the users of their own centers (others 404).
  typed.post(`${commandCenterEndpoints.list}/users/:userId/alert`, {
    onRequest: requireSupervisor,
    config: { access: 'careTeam' },
    schema: {
      tags,
      summary:
        "Send an alert with a message to a user: an active alert for the user and a notify job with the message on each of the user's devices",
      params: userIdParamsSchema,
      body: userAlertSchema,
      response: { 201: userAlertCreatedSchema, ...errors },
    },
    handler: async (request, reply) => {
      const centers = await scope.assertUserInScope(requireCaller(request), request.params.userId);
      const created = await service.alertUser(
        request.params.userId,
        request.body,
        actionContext(request),
        centers,
      );
      return reply.status(201).send(created);
    },
  });

  typed.post(`${commandCenterEndpoints.list}/users/:userId/device/reboot`, {
    onRequest: requireSupervisor,
    config: { access: 'careTeam' },
    schema: {
      tags,
      summary: "Request a reboot of the user's devices: a reboot job on each; 409 when the user has none",
      params: userIdParamsSchema,
      response: { 201: deviceRebootRequestedSchema, ...errors },
    },
    handler: async (request, reply) => {
      const centers = await scope.assertUserInScope(requireCaller(request), request.params.userId);
      const requested = await service.rebootUserDevices(
        request.params.userId,
        actionContext(request),
        centers,
      );
      return reply.status(201).send(requested);
    },
  });
}
