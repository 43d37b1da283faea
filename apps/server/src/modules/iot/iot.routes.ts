// /api/iot-devices (+ exists check, latest reading) and /api/iot-devices/data (+ submit).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema, idParamsSchema } from '@careplane/shared/common/http';
import {
  CONNECTION_SECRET_HEADER,
  ingestionCountsSchema,
  iotDataSubmissionResultSchema,
  iotDataSubmissionSchema,
  iotDeviceExistsQuerySchema,
  iotDeviceExistsSchema,
  iotEndpoints,
  lastDataSubmissionQuerySchema,
  lastDataSubmissionSchema,
  readingsSummaryQuerySchema,
  readingsSummarySchema,
  MAX_SUBMISSION_BYTES,
} from '@careplane/shared/iot/iot.contract';
import { requireAdmin } from '@/lib/caller.js';
import { AppError, serviceTexts } from '@/lib/errors.js';
import { actionContext, deviceActionContext, errorResponses } from '@/lib/http.js';
import { registerResourceRoutes } from '@/lib/resources/routes.js';
import { iotDataResource, iotDevicesResource } from './iot.resource.js';
import type { IotService } from './iot.service.js';

/** How many readings an invalid submission held, for the count of refused readings. */
function readingsIn(body: unknown) {
  const data = (body as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? data.length : 0;
}

export async function iotModule(app: FastifyInstance, { service: iot }: { service: IotService }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(iotEndpoints.ingestion, {
    onRequest: requireAdmin,
    config: { access: 'admin' },
    schema: {
      tags: [iotDataResource.name],
      summary: 'Readings this server process has stored and refused since it started, over HTTP and MQTT',
      response: { 200: ingestionCountsSchema, ...errorResponses },
    },
    handler: async () => iot.ingestionCounts(),
  });

  registerResourceRoutes(app, iot.iotDevices);
  registerResourceRoutes(app, iot.readings, { omit: ['create', 'update'] });

  typed.get(iotEndpoints.exists, {
    onRequest: requireAdmin,
    config: { access: 'admin' },
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
    config: { access: 'admin' },
    schema: {
      tags: [iotDevicesResource.name],
      summary: 'The latest reading of an IoT device (null when it has sent none)',
      params: idParamsSchema,
      querystring: lastDataSubmissionQuerySchema,
      response: { 200: lastDataSubmissionSchema, ...errorResponses },
    },
    handler: async (request) => iot.lastDataSubmission(request.params.id, request.query.dataType),
  });

  typed.get(`${iotEndpoints.devices}/:id/readings-summary`, {
    onRequest: requireAdmin,
    config: { access: 'admin' },
    schema: {
      tags: [iotDevicesResource.name],
      summary:
        'One type of readings between two moments (both included), cut into equal periods: per period the count ' +
        'and the lowest, mean and highest value of each number the readings carry (periods without readings left out)',
      params: idParamsSchema,
      querystring: readingsSummaryQuerySchema,
      response: { 200: readingsSummarySchema, ...errorResponses },
    },
    handler: async (request) => iot.readingsSummary(request.params.id, request.query),
  });

  // The generic create and the spec's submit call are the same: a batch of readings of one device.
  for (const url of [iotEndpoints.data, iotEndpoints.submitData]) {
    typed.post(url, {
      // An admin, or a client device relaying the readings of an IoT device linked to it (device token).
      onRequest: async (request) => {
        if (!request.device) await requireAdmin(request);
      },
      config: { access: 'deviceOrAdmin' },
      // 5,000 readings with long ids weigh more than the 1 MiB other bodies may.
      bodyLimit: MAX_SUBMISSION_BYTES,
      // A submission refused by its schema is counted (and logged by the error handler); nothing is stored.
      onError: async (request, _reply, error) => {
        if ((error as { validation?: unknown }).validation) {
          iot.countInvalid('http', readingsIn(request.body), true);
        }
      },
      schema: {
        tags: [iotDataResource.name],
        summary:
          'Store a batch of readings of one IoT device (all or nothing; retries are stored once), by an admin or by ' +
          'a client device (device token) for an IoT device linked to it. A trusted ' +
          `device's batch carries its connection secret in the ${CONNECTION_SECRET_HEADER} header.`,
        body: iotDataSubmissionSchema,
        security: [{ bearer: [] }, { deviceToken: [] }],
        response: { 201: iotDataSubmissionResultSchema, ...errorResponses },
      },
      handler: async (request, reply) => {
        const secret = request.headers[CONNECTION_SECRET_HEADER];
        const relay = request.device;
        const result = await iot.submitReadings(
          request.body,
          relay ? deviceActionContext(request) : actionContext(request),
          typeof secret === 'string' ? secret : undefined,
          relay?.id,
        );
        return reply.status(201).send(result);
      },
    });
  }

  typed.patch(`${iotEndpoints.data}/:id`, {
    onRequest: requireAdmin,
    // Whatever change is sent, the answer is the same 405: a reading is not changed.
    config: { access: 'admin', anyBody: true },
    schema: {
      tags: [iotDataResource.name],
      summary: 'Readings are not changed once stored',
      params: idParamsSchema,
      response: { 405: errorBodySchema, ...errorResponses },
    },
    handler: async () => {
      throw new AppError(405, serviceTexts.readingsNotChanged);
    },
  });
}
