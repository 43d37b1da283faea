// /api/devices, /api/devices/stats, /api/devices/workstations, /api/devices/jobs and their specific calls (admin).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { alertSchema } from '@careplane/shared/alerts/alerts.contract';
import { idParamsSchema, listResponseSchema } from '@careplane/shared/common/http';
import {
  deviceCreateSchema,
  linkedIotDeviceSchema,
  deviceEndpoints,
  deviceStatEndpoints,
  workstationEndpoints,
  deviceCreatedSchema,
  deviceJobReportSchema,
  deviceJobSchema,
  deviceSchema,
  deviceStatCreateSchema,
  deviceStatSubmissionSchema,
  nextJobQuerySchema,
  deviceStatSchema,
  deviceStatsQuerySchema,
  deviceStatsSummaryQuerySchema,
  deviceStatsSummarySchema,
  deviceTokenIssuedSchema,
  lastStatsSubmissionSchema,
  workstationPatientSchema,
  workstationSchema,
} from '@careplane/shared/devices/devices.contract';
import { requireAdmin, requireDevice } from '@/lib/caller.js';
import { badRequest, zodIssues } from '@/lib/errors.js';
import { actionContext, deviceActionContext, errorResponses as errors } from '@/lib/http.js';
import { registerResourceRoutes } from '@/lib/resources/routes.js';
import type { DevicesService } from './devices.service.js';

/** Checks a body against one of the schemas a shared route accepts; a 400 lists what is wrong. */
function strictBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw badRequest('Invalid request', zodIssues('body', parsed.error.issues));
}

/** How often silent jobs are timed out without anyone fetching. */
const SWEEP_INTERVAL_MS = 30_000;

export async function devicesModule(app: FastifyInstance, { service }: { service: DevicesService }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const closing = new AbortController();
  const sweeper = setInterval(() => {
    service.runner
      .sweep({ caller: null, ip: null })
      .catch((error: unknown) => app.log.error({ err: error }, 'timing out silent jobs failed'));
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();
  app.addHook('preClose', async () => {
    clearInterval(sweeper);
    closing.abort();
  });

  // Device create answers the token once; the stats list has its own default limit and `timestamps`.
  registerResourceRoutes(app, service.devices, { omit: ['create'] });
  // POST /api/devices/stats is shared: a device posts its own stats, an admin a full record (below).
  registerResourceRoutes(app, service.stats, { omit: ['list', 'create'] });
  registerResourceRoutes(app, service.workstations);
  registerResourceRoutes(app, service.jobs);

  // The device's own calls (decisions §7): a device token, never a person's.
  typed.get(deviceEndpoints.me, {
    config: { access: 'device' },
    schema: {
      tags: ['devices'],
      summary: 'The calling device (device token)',
      security: [{ deviceToken: [] }],
      response: { 200: deviceSchema, ...errors },
    },
    handler: async (request) => service.me(requireDevice(request).id),
  });

  typed.post(deviceStatEndpoints.list, {
    onRequest: async (request) => {
      if (!request.device) await requireAdmin(request);
    },
    config: { access: 'deviceOrAdmin' },
    schema: {
      tags: ['device-stats'],
      summary:
        'A device posts its own stats (device token; the server sets timestamp and device), or an admin creates a full record',
      security: [{ deviceToken: [] }, { bearer: [] }],
      body: z.union([deviceStatSubmissionSchema, deviceStatCreateSchema]),
      response: { 201: deviceStatSchema, ...errors },
    },
    // The union documents both bodies; which one applies depends on the caller, so the handler checks the body
    // against the caller's own schema (strictBody). A refusal then names what that caller got wrong (an admin's
    // missing bootTime) instead of saying the body as a whole "is not valid" for either.
    validatorCompiler: () => (body: unknown) => ({ value: body }),
    handler: async (request, reply) => {
      const device = request.device;
      const created = device
        ? await service.submitStat(
            device.id,
            strictBody(deviceStatSubmissionSchema, request.body),
            deviceActionContext(request),
          )
        : await service.stats.create(
            strictBody(deviceStatCreateSchema, request.body),
            actionContext(request),
          );
      return reply.status(201).send(created);
    },
  });

  typed.get(deviceEndpoints.myIotDevices, {
    config: { access: 'device' },
    schema: {
      tags: ['devices'],
      summary: 'The IoT devices linked to the calling device, whose readings it may relay (device token)',
      security: [{ deviceToken: [] }],
      response: { 200: z.array(linkedIotDeviceSchema), ...errors },
    },
    handler: async (request) => service.linkedIotDevices(requireDevice(request).id),
  });

  typed.get(deviceEndpoints.alerts, {
    config: { access: 'device' },
    schema: {
      tags: ['devices'],
      summary: "Open alerts of the calling device's assigned user and IoT devices (device token)",
      security: [{ deviceToken: [] }],
      response: { 200: z.array(alertSchema), ...errors },
    },
    handler: async (request) => service.deviceAlerts(requireDevice(request).id),
  });

  // Runner jobs from the device's side (decision 025).
  typed.get(deviceEndpoints.nextJob, {
    // A long poll waits by design; its `wait` is bounded by the contract.
    config: { access: 'device', deadline: false },
    schema: {
      tags: ['devices'],
      summary:
        'The next due job of the calling device, handed to this fetch only; waits up to `wait` seconds (204 when none came)',
      security: [{ deviceToken: [] }],
      querystring: nextJobQuerySchema,
      response: { 200: deviceJobSchema, 204: z.null(), ...errors },
    },
    handler: async (request, reply) => {
      const device = requireDevice(request);
      const gone = new AbortController();
      const abort = () => gone.abort();
      request.raw.once('close', abort);
      const stop = closing.signal;
      stop.addEventListener('abort', abort, { once: true });
      try {
        const job = await service.runner.nextJob(
          { deviceId: device.id, tokenHash: device.tokenHash },
          request.query.wait,
          deviceActionContext(request),
          gone.signal,
        );
        return job ? job : reply.status(204).send(null);
      } finally {
        request.raw.off('close', abort);
        stop.removeEventListener('abort', abort);
      }
    },
  });

  typed.post('/api/devices/me/jobs/:id/ack', {
    config: { access: 'device' },
    schema: {
      tags: ['devices'],
      summary: 'The calling device acknowledges a job it fetched: NEW → ACCEPTED',
      security: [{ deviceToken: [] }],
      params: idParamsSchema,
      response: { 200: deviceJobSchema, ...errors },
    },
    handler: async (request) =>
      service.runner.acknowledge(requireDevice(request).id, request.params.id, deviceActionContext(request)),
  });

  typed.post('/api/devices/me/jobs/:id/status', {
    config: { access: 'device' },
    schema: {
      tags: ['devices'],
      summary: 'The calling device reports a job: RUNNING (with partial results), SUCCEEDED or FAILED',
      security: [{ deviceToken: [] }],
      params: idParamsSchema,
      body: deviceJobReportSchema,
      response: { 200: deviceJobSchema, ...errors },
    },
    handler: async (request) =>
      service.runner.report(
        requireDevice(request).id,
        request.params.id,
        request.body,
        deviceActionContext(request),
      ),
  });

  typed.post(deviceEndpoints.list, {
    onRequest: requireAdmin,
    config: { access: 'admin' },
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
    config: { access: 'admin' },
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
    config: { access: 'admin' },
    schema: {
      tags: ['devices'],
      summary: 'The newest stat of a device, or null when it has sent none',
      params: idParamsSchema,
      response: { 200: lastStatsSubmissionSchema, ...errors },
    },
    handler: async (request) => service.lastStatsSubmission(request.params.id),
  });

  typed.get(`${deviceEndpoints.list}/:id/stats-summary`, {
    onRequest: requireAdmin,
    config: { access: 'admin' },
    schema: {
      tags: ['device-stats'],
      summary:
        "A device's stats between two moments (both included), cut into equal parts: per part with stats its count and the lowest, mean and highest CPU, memory, disk and load",
      params: idParamsSchema,
      querystring: deviceStatsSummaryQuerySchema,
      response: { 200: deviceStatsSummarySchema, ...errors },
    },
    handler: async (request) => service.statsSummary(request.params.id, request.query),
  });

  typed.get(deviceStatEndpoints.list, {
    onRequest: requireAdmin,
    config: { access: 'admin' },
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
    config: { access: 'admin' },
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
    config: { access: 'admin' },
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
