// /api/devices, /api/devices/stats, /api/devices/workstations, /api/devices/jobs and their specific calls (admin).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema, listResponseSchema } from '@careplane/shared/common/http';
import {
  deviceCreateSchema,
  deviceEndpoints,
  deviceStatEndpoints,
  workstationEndpoints,
  deviceCreatedSchema,
  deviceSchema,
  deviceStatSchema,
  deviceStatsQuerySchema,
  deviceTokenIssuedSchema,
  lastStatsSubmissionSchema,
  workstationPatientSchema,
  workstationSchema,
} from '@careplane/shared/devices/devices.contract';
import { requireAdmin, requireDevice } from '../../lib/caller.js';
import { actionContext, errorResponses as errors } from '../../lib/http.js';
import { registerResourceRoutes } from '../../lib/resources/routes.js';
import type { DevicesService } from './devices.service.js';

export async function devicesModule(app: FastifyInstance, { service }: { service: DevicesService }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  // Device create answers the token once; the stats list has its own default limit and `timestamps`.
  registerResourceRoutes(app, service.devices, { omit: ['create'] });
  registerResourceRoutes(app, service.stats, { omit: ['list'] });
  registerResourceRoutes(app, service.workstations);
  registerResourceRoutes(app, service.jobs);

  // The device's own calls (decisions §7): a device token, never a person's.
  typed.get(deviceEndpoints.me, {
    schema: {
      tags: ['devices'],
      summary: 'The calling device (device token)',
      security: [{ deviceToken: [] }],
      response: { 200: deviceSchema, ...errors },
    },
    handler: async (request) => service.me(requireDevice(request).id),
  });

  typed.post(deviceEndpoints.list, {
    onRequest: requireAdmin,
    schema: {
      tags: ['devices'],
      summary: 'Create a client device; the answer shows its device token, once',
      body: deviceCreateSchema,
      response: { 201: deviceCreatedSchema, ...errors },
    },
    handler: async (request, reply) => {
      const created = await service.createDevice(request.body, actionContext(request));
      return reply.status(201).send(created);
    },
  });

  typed.post(`${deviceEndpoints.list}/:id/token`, {
    onRequest: requireAdmin,
    schema: {
      tags: ['devices'],
      summary: 'Issue a new device token (the old one stops working); the answer shows it, once',
      params: idParamsSchema,
      response: { 200: deviceTokenIssuedSchema, ...errors },
    },
    handler: async (request) => service.rekeyDevice(request.params.id, actionContext(request)),
  });

  typed.get(`${deviceEndpoints.list}/:id/last-stats-submission`, {
    onRequest: requireAdmin,
    schema: {
      tags: ['devices'],
      summary: 'The newest stat of a device, or null when it has sent none',
      params: idParamsSchema,
      response: { 200: lastStatsSubmissionSchema, ...errors },
    },
    handler: async (request) => service.lastStatsSubmission(request.params.id),
  });

  typed.get(deviceStatEndpoints.list, {
    onRequest: requireAdmin,
    schema: {
      tags: ['device-stats'],
      summary: 'List device stats (newest first, 5 by default); `timestamps` picks stats at exact times',
      querystring: deviceStatsQuerySchema,
      response: { 200: listResponseSchema(deviceStatSchema), ...errors },
    },
    handler: async (request) => service.listStats(request.query),
  });

  typed.post(`${workstationEndpoints.list}/:id/assigned-patient/add`, {
    onRequest: requireAdmin,
    schema: {
      tags: ['workstations'],
      summary: 'Assign a patient (a user) to a workstation; assigning twice changes nothing',
      params: idParamsSchema,
      body: workstationPatientSchema,
      response: { 200: workstationSchema, ...errors },
    },
    handler: async (request) =>
      service.addWorkstationPatient(request.params.id, request.body.id, actionContext(request)),
  });

  typed.post(`${workstationEndpoints.list}/:id/assigned-patient/remove`, {
    onRequest: requireAdmin,
    schema: {
      tags: ['workstations'],
      summary: 'Remove a patient (a user) from a workstation; removing twice changes nothing',
      params: idParamsSchema,
      body: workstationPatientSchema,
      response: { 200: workstationSchema, ...errors },
    },
    handler: async (request) =>
      service.removeWorkstationPatient(request.params.id, request.body.id, actionContext(request)),
  });
}
