// What every route shares: the error answers it may give and the action context of its request.
import type { FastifyRequest } from 'fastify';
import { errorBodySchema } from '@careplane/shared/common/http';
import type { ActionContext } from './audit.js';

/** The error answers of an API route (decisions §2), for its response schema. */
export const errorResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
} as const;

/** Who acts and from which address, for the audit log. */
export const actionContext = (request: Pick<FastifyRequest, 'caller' | 'ip'>): ActionContext => ({
  caller: request.caller,
  ip: request.ip,
});
