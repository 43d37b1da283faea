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
import { requireAdmin } from '../../lib/caller.js';
import { AppError } from '../../lib/errors.js';
import { actionContext, errorResponses } from '../../lib/http.js';
import { registerResourceRoutes } from '../../lib/resources/routes.js';
import type { Store } from '../../lib/store.js';
import { iotDataResource, iotDevicesResource } from './iot.resource.js';
import { createIotService } from './iot.service.js';

export async function iotModule(app: FastifyInstance, { store }: { store: Store }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const iot = createIotService(store);

  registerResourceRoutes(app, iot.iotDevices);
  registerResourceRoutes(app, iot.readings, { omit: ['create', 'update'] });

  typed.get(iotEndpoints.exists, {
    onRequest: requireAdmin,
    schema: {
      tags: [iotDevicesResource.name],
      summary: 'Whether an IoT device with this hardware identifier exists',
      querystring: iotDeviceExistsQuerySchema,
      response: { 200: iotDeviceExistsSchema, ...errorResponses },
    },
    handler: async (request) => iot.existsByHardwareIdentifier(request.query.hardwareIdentifier),
  });

  typed.get(`${iotEndpoints.devices}/:id/last-data-submission`, {
    onRequest: requireAdmin,
    schema: {
      tags: [iotDevicesResource.name],
      summary: 'The latest reading of an IoT device (null when it has sent none)',
      params: idParamsSchema,
      querystring: lastDataSubmissionQuerySchema,
      response: { 200: lastDataSubmissionSchema, ...errorResponses },
    },
    handler: async (request) => iot.lastDataSubmission(request.params.id, request.query.dataType),
  });

  // The generic create and the spec's submit call are the same: a batch of readings of one device.
  for (const url of [iotEndpoints.data, iotEndpoints.submitData]) {
    typed.post(url, {
      onRequest: requireAdmin,
      schema: {
        tags: [iotDataResource.name],
        summary: 'Store a batch of readings of one IoT device (all or nothing; retries are stored once)',
        body: iotDataSubmissionSchema,
        response: { 201: iotDataSubmissionResultSchema, ...errorResponses },
      },
      handler: async (request, reply) => {
        const result = await iot.submitReadings(request.body, actionContext(request));
        return reply.status(201).send(result);
      },
    });
  }

  typed.patch(`${iotEndpoints.data}/:id`, {
    onRequest: requireAdmin,
    schema: {
      tags: [iotDataResource.name],
      summary: 'Readings are not changed once stored',
      params: idParamsSchema,
      response: { 405: errorBodySchema, ...errorResponses },
    },
    handler: async () => {
      throw new AppError(405, 'Readings are measurements and are not changed once stored');
    },
  });
}
