// /api/devices, /api/devices/stats, /api/devices/workstations, /api/devices/jobs and their specific calls (admin).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema, idParamsSchema, listResponseSchema } from '@careplane/shared/common/http';
import {
  deviceCreateSchema,
  deviceCreatedSchema,
  deviceStatSchema,
  deviceStatsQuerySchema,
  deviceTokenIssuedSchema,
  lastStatsSubmissionSchema,
  workstationPatientSchema,
  workstationSchema,
} from '@careplane/shared/devices/devices.contract';
import type { Database } from '../../db/client.js';
import { actionContext, registerResourceRoutes } from '../../lib/resources/routes.js';
import { requireAdmin } from '../../plugins/auth.js';
import { createDevicesService } from './devices.service.js';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

export async function devicesModule(app: FastifyInstance, { db }: { db: Database }) {
  const service = createDevicesService(db);
  const typed = app.withTypeProvider<ZodTypeProvider>();

  // Device create answers the token once; the stats list has its own default limit and `timestamps`.
  registerResourceRoutes(app, service.devices, { omit: ['create'] });
  registerResourceRoutes(app, service.stats, { omit: ['list'] });
  registerResourceRoutes(app, service.workstations);
  registerResourceRoutes(app, service.jobs);

  typed.post('/api/devices', {
    preHandler: requireAdmin,
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

  typed.post('/api/devices/:id/token', {
    preHandler: requireAdmin,
    schema: {
      tags: ['devices'],
      summary: 'Issue a new device token (the old one stops working); the answer shows it, once',
      params: idParamsSchema,
      response: { 200: deviceTokenIssuedSchema, ...errors },
    },
    handler: async (request) => service.rekeyDevice(request.params.id, actionContext(request)),
  });

  typed.get('/api/devices/:id/last-stats-submission', {
    preHandler: requireAdmin,
    schema: {
      tags: ['devices'],
      summary: 'The newest stat of a device, or null when it has sent none',
      params: idParamsSchema,
      response: { 200: lastStatsSubmissionSchema, ...errors },
    },
    handler: async (request) => service.lastStatsSubmission(request.params.id),
  });

  typed.get('/api/devices/stats', {
    preHandler: requireAdmin,
    schema: {
      tags: ['device-stats'],
      summary: 'List device stats (newest first, 5 by default); `timestamps` picks stats at exact times',
      querystring: deviceStatsQuerySchema,
      response: { 200: listResponseSchema(deviceStatSchema), ...errors },
    },
    handler: async (request) => service.listStats(request.query),
  });

  typed.post('/api/devices/workstations/:id/assigned-patient/add', {
    preHandler: requireAdmin,
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

  typed.post('/api/devices/workstations/:id/assigned-patient/remove', {
    preHandler: requireAdmin,
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
