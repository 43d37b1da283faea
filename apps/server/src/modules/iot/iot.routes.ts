// /api/iot-devices (+ exists check, latest reading) and /api/iot-devices/data (+ submit).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema, idParamsSchema } from '@careplane/shared/common/http';
import {
  iotDataSubmissionResultSchema,
  iotDataSubmissionSchema,
  iotDeviceExistsQuerySchema,
  iotDeviceExistsSchema,
  iotEndpoints,
  lastDataSubmissionQuerySchema,
  lastDataSubmissionSchema,
} from '@careplane/shared/iot/iot.contract';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { createResourceService } from '../../lib/resources/resource.js';
import { actionContext, registerResourceRoutes } from '../../lib/resources/routes.js';
import { requireAdmin } from '../../plugins/auth.js';
import { iotDataResource, iotDevicesResource } from './iot.resource.js';
import { createIotService } from './iot.service.js';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

export async function iotModule(app: FastifyInstance, { db }: { db: Database }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const iot = createIotService(db);

  registerResourceRoutes(app, createResourceService(db, iotDevicesResource));
  registerResourceRoutes(app, createResourceService(db, iotDataResource), { omit: ['create', 'update'] });

  typed.get(iotEndpoints.exists, {
    preHandler: requireAdmin,
    schema: {
      tags: [iotDevicesResource.name],
      summary: 'Whether an IoT device with this hardware identifier exists',
      querystring: iotDeviceExistsQuerySchema,
      response: { 200: iotDeviceExistsSchema, ...errors },
    },
    handler: async (request) => iot.existsByHardwareIdentifier(request.query.hardwareIdentifier),
  });

  typed.get(`${iotEndpoints.devices}/:id/last-data-submission`, {
    preHandler: requireAdmin,
    schema: {
      tags: [iotDevicesResource.name],
      summary: 'The latest reading of an IoT device (null when it has sent none)',
      params: idParamsSchema,
      querystring: lastDataSubmissionQuerySchema,
      response: { 200: lastDataSubmissionSchema, ...errors },
    },
    handler: async (request) => iot.lastDataSubmission(request.params.id, request.query.dataType),
  });

  // The generic create and the spec's submit call are the same: a batch of readings of one device.
  for (const url of [iotEndpoints.data, iotEndpoints.submitData]) {
    typed.post(url, {
      preHandler: requireAdmin,
      schema: {
        tags: [iotDataResource.name],
        summary: 'Store a batch of readings of one IoT device (all or nothing; retries are stored once)',
        body: iotDataSubmissionSchema,
        response: { 201: iotDataSubmissionResultSchema, ...errors },
      },
      handler: async (request, reply) => {
        const result = await iot.submitReadings(request.body, actionContext(request));
        return reply.status(201).send(result);
      },
    });
  }

  typed.patch(`${iotEndpoints.data}/:id`, {
    preHandler: requireAdmin,
    schema: {
      tags: [iotDataResource.name],
      summary: 'Readings are not changed once stored',
      params: idParamsSchema,
      response: { 405: errorBodySchema, ...errors },
    },
    handler: async () => {
      throw new AppError(405, 'Readings are measurements and are not changed once stored');
    },
  });
}
