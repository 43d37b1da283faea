// What every route shares: the error answers it may give and the action context of its request.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBodySchema } from '@careplane/shared/common/http';
import { pickLanguage, type Language } from '@careplane/shared/i18n/languages';
import type { ActionContext } from './audit.js';
import { requireDevice } from './caller.js';
import { badRequest, serviceTexts } from './errors.js';

/** The error answers of an API route (decisions §2), for its response schema. */
export const errorResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
} as const;

/** The language an answer written for people is in (Accept-Language), said in its Content-Language. */
export function answerLanguage(request: Pick<FastifyRequest, 'headers'>, reply: FastifyReply): Language {
  const language = pickLanguage(request.headers['accept-language']);
  void reply.header('content-language', language);
  return language;
}

/** Who acts and from which address, for the audit log, and the language they read. */
export const actionContext = (request: Pick<FastifyRequest, 'caller' | 'ip' | 'headers'>): ActionContext => ({
  caller: request.caller,
  ip: request.ip,
  language: pickLanguage(request.headers['accept-language']),
});

/** The audit log's actor for a device's own writes (device token): `device:<id>`, no user. */
export function deviceActionContext(request: Pick<FastifyRequest, 'device' | 'ip'>): ActionContext {
  const device = requireDevice(request);
  return {
    caller: {
      subject: `device:${device.id}`,
      roles: [],
      claims: {},
      userId: null,
      localRoles: [],
      isAdmin: false,
    },
    ip: request.ip,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The Idempotency-Key of an action a phone may send again (a prescription's plain action, decision 046; an
 * alert's acknowledge or close, decision 107), when sent: one UUID, else a 400 that says so.
 */
export function idempotencyKeyOf(request: Pick<FastifyRequest, 'headers'>): string | undefined {
  const sent = request.headers['idempotency-key'];
  if (sent === undefined) return undefined;
  if (typeof sent === 'string' && UUID.test(sent.trim())) return sent.trim().toLowerCase();
  throw badRequest(serviceTexts.invalidIdempotencyKeyHeader, [
    {
      path: 'headers.idempotency-key',
      message: 'Must be a UUID (a new one for each action, the same one when sending that action again)',
    },
  ]);
}

/** Says in `Idempotent-Replayed` that an answer is a key's repeat: nothing was done again (decisions 046, 107). */
export function sayReplayed(reply: FastifyReply, replayed: boolean | undefined): void {
  if (replayed) void reply.header('idempotent-replayed', 'true');
}
