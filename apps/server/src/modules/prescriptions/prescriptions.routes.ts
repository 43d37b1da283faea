// /api/prescriptions: the generic resource (participants see theirs), the status actions of the shared table,
// the phone signature an issue or a pickup waits for, the signed receipts and the history.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, idParamsSchema } from '@careplane/shared/common/http';
import {
  prescriptionActions,
  prescriptionTransitions,
} from '@careplane/shared/prescriptions/prescription-transitions';
import {
  actionsWithReason,
  prescriptionEmptyBodySchema,
  prescriptionEndpointPatterns,
  prescriptionHistorySchema,
  prescriptionPlainBodySchema,
  prescriptionReasonBodySchema,
  prescriptionReceiptParamsSchema,
  prescriptionSchema,
  prescriptionSigningParamsSchema,
  prescriptionSigningStartedSchema,
  prescriptionSigningStateSchema,
  prescriptionVerificationSchema,
  prescriptionViewerSchema,
  prescriptionChoicesSchema,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { allow, accessRules, requireCaller } from '@/lib/caller.js';
import { actionContext, answerLanguage, errorResponses, idempotencyKeyOf, sayReplayed } from '@/lib/http.js';
import { registerResourceRoutes } from '@/lib/resources/routes.js';
import type { FileDownload } from '@/modules/documents/documents.service.js';
import { localizeReport } from '@/modules/documents/verification-texts.js';
import type { PrescriptionsService } from './prescriptions.service.js';

function sendPdf(reply: FastifyReply, file: FileDownload, disposition: 'attachment' | 'inline') {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-length', String(file.size))
    .header('content-disposition', `${disposition}; filename="${file.filename}"`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.stream);
}

export interface PrescriptionsModuleOptions {
  service: PrescriptionsService;
  /** Public verifications per minute and address (the documents verifier's limit). */
  verifyRateLimit: number;
  /** Shared rate-limit counts across processes (REDIS_URL). */
  redis: Redis | null;
  redisKeyPrefix: string;
}

export async function prescriptionsModule(app: FastifyInstance, options: PrescriptionsModuleOptions) {
  const { service } = options;
  await app.register(rateLimit, {
    global: false,
    ...(options.redis
      ? {
          redis: options.redis,
          nameSpace: `${options.redisKeyPrefix}prescriptions:rate:`,
          skipOnError: true,
        }
      : {}),
  });
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['prescriptions'];
  const signedIn = allow(accessRules.signedIn);

  typed.get(prescriptionEndpointPatterns.viewer, {
    onRequest: signedIn,
    config: { access: 'signedIn' },
    schema: {
      tags,
      summary: 'Who asks, as the who-may rules of the transition table read it (roles and employers)',
      response: { 200: prescriptionViewerSchema, ...errorResponses },
    },
    handler: async (request) => service.viewer(requireCaller(request)),
  });

  typed.get(prescriptionEndpointPatterns.choices, {
    onRequest: signedIn,
    config: { access: 'doctor' },
    schema: {
      tags,
      summary:
        "What a doctor's prescription form offers: the patients of the doctor's command centers (with their " +
        'first assigned nurse), the enabled pharmacies and courier companies (decision 084)',
      response: { 200: prescriptionChoicesSchema, ...errorResponses },
    },
    handler: async (request) => service.choices(requireCaller(request)),
  });

  registerResourceRoutes(app, service.prescriptions, {
    // Anyone signed in lists the prescriptions they take part in; a doctor submits in their own name.
    access: { list: 'signedIn', read: 'participant', create: 'doctor' },
  });

  for (const action of prescriptionActions) {
    const withReason = actionsWithReason.includes(action);
    typed.post(prescriptionEndpointPatterns.action(action), {
      onRequest: signedIn,
      config: { access: 'participant' },
      schema: {
        tags,
        summary:
          action === 'issue' || action === 'pickup'
            ? `${action}: 202 with the phone request; the status changes once the signer's phone signs`
            : `${action} (decisions §5). An Idempotency-Key header (a UUID) makes a repeat answer the ` +
              'first answer without acting twice (decision 046)',
        params: idParamsSchema,
        body: (prescriptionTransitions[action].signs
          ? prescriptionEmptyBodySchema
          : withReason
            ? prescriptionReasonBodySchema
            : prescriptionPlainBodySchema
        ).nullish(),
        response: {
          200: prescriptionSchema,
          202: prescriptionSigningStartedSchema,
          ...errorResponses,
          422: errorBodySchema,
        },
      },
      handler: async (request, reply) => {
        const outcome = await service.perform(
          request.params.id,
          action,
          request.body,
          actionContext(request),
          idempotencyKeyOf(request),
        );
        if (outcome.kind === 'signing') return reply.status(202).send(outcome.started);
        sayReplayed(reply, outcome.replayed);
        return reply.status(200).send(outcome.prescription);
      },
    });
  }

  typed.get(prescriptionEndpointPatterns.signing, {
    onRequest: signedIn,
    config: { access: 'participant' },
    schema: {
      tags,
      summary: 'Where an issue or pickup waiting for a phone signature stands; completes it once approved',
      params: prescriptionSigningParamsSchema,
      response: { 200: prescriptionSigningStateSchema, ...errorResponses },
    },
    handler: async (request) =>
      service.signingState(request.params.id, request.params.requestId, actionContext(request)),
  });

  typed.get(prescriptionEndpointPatterns.receipt, {
    onRequest: signedIn,
    config: { access: 'participant' },
    schema: {
      tags,
      summary: 'The signed prescription (issuer) or pickup receipt (pickup) as a PDF',
      params: prescriptionReceiptParamsSchema,
      response: { 200: z.any().describe('application/pdf'), ...errorResponses },
    },
    handler: async (request, reply) =>
      sendPdf(
        reply,
        await service.receipt(request.params.id, request.params.receipt, requireCaller(request)),
        'attachment',
      ),
  });

  typed.get(prescriptionEndpointPatterns.verification, {
    config: {
      public: true,
      access: 'public',
      rateLimit: { max: options.verifyRateLimit, timeWindow: 60_000 },
    },
    schema: {
      tags,
      summary: "Verify a prescription's signed receipts, for anyone holding one (its QR code); no sign-in",
      security: [],
      params: idParamsSchema,
      response: { 200: prescriptionVerificationSchema, 404: errorBodySchema, 429: errorBodySchema },
    },
    handler: async (request, reply) => {
      const language = answerLanguage(request, reply);
      const { receipts } = await service.verification(request.params.id);
      return {
        receipts: receipts.map((entry) => ({ ...entry, report: localizeReport(entry.report, language) })),
      };
    },
  });

  typed.get(prescriptionEndpointPatterns.verifiedReceipt, {
    config: {
      public: true,
      access: 'public',
      rateLimit: { max: options.verifyRateLimit, timeWindow: 60_000 },
    },
    schema: {
      tags,
      summary:
        'A signed receipt as the platform holds it, shown in the browser, to compare with the paper; no sign-in',
      security: [],
      params: prescriptionReceiptParamsSchema,
      response: { 200: z.any().describe('application/pdf'), 404: errorBodySchema, 429: errorBodySchema },
    },
    handler: async (request, reply) =>
      sendPdf(reply, await service.verifiedReceipt(request.params.id, request.params.receipt), 'inline'),
  });

  typed.get(prescriptionEndpointPatterns.history, {
    onRequest: signedIn,
    config: { access: 'participant' },
    schema: {
      tags,
      summary: 'The audit rows of a prescription, newest first',
      params: idParamsSchema,
      response: { 200: prescriptionHistorySchema, ...errorResponses },
    },
    handler: async (request, reply) =>
      service.history(request.params.id, requireCaller(request), answerLanguage(request, reply)),
  });
}
