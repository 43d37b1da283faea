// One error handler: every failure answers { statusCode, error, message, issues? }; 5xx hide internals.
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type ErrorIssue } from '../lib/errors.js';

const body = (statusCode: number, message: string, issues?: ErrorIssue[]) => ({
  statusCode,
  error: STATUS_CODES[statusCode] ?? 'Error',
  message,
  ...(issues ? { issues } : {}),
});

interface PgError {
  code: string;
  detail?: string;
  constraint?: string;
  column?: string;
}
const isPgError = (error: unknown): error is PgError =>
  typeof error === 'object' &&
  error !== null &&
  typeof (error as { code?: unknown }).code === 'string' &&
  /^[0-9A-Z]{5}$/.test((error as { code: string }).code);

/** Database errors that are the client's fault, by SQLSTATE. */
function fromDatabase(error: PgError): { status: number; message: string } | undefined {
  switch (error.code) {
    case '23505':
      return {
        status: 409,
        message: `A record with this value already exists (${error.constraint ?? 'unique'})`,
      };
    case '23503':
      return {
        status: 400,
        message: `A referenced record does not exist${error.column ? ` (${error.column})` : referencedColumn(error.detail)}`,
      };
    case '23502':
      return { status: 400, message: `Missing required value${error.column ? ` for ${error.column}` : ''}` };
    case '22P02':
    case '22007':
    case '22008':
    case '22003':
    case '22001':
    case '22021':
    case '22P05':
    case '23514':
      return { status: 400, message: 'Invalid value' };
    case '40001':
    case '40P01':
      return { status: 409, message: 'Concurrent change, try again' };
    default:
      return undefined;
  }
}

function unwrapCause(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (isPgError(current)) return current;
    current = (current as Error & { cause?: unknown }).cause;
  }
  return current;
}

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send(body(error.statusCode, error.message, error.issues));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => ({
        path: [error.validationContext, ...issue.instancePath.split('/').filter(Boolean)].join('.'),
        message: issue.message ?? 'Invalid value',
      }));
      return reply.status(400).send(body(400, 'Invalid request', issues));
    }
    const cause = unwrapCause(error);
    if (isPgError(cause)) {
      const mapped = fromDatabase(cause);
      if (mapped) return reply.status(mapped.status).send(body(mapped.status, mapped.message));
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send(body(status, error.message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(body(500, 'Internal server error'));
  });

  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(body(404, `Route ${request.method} ${request.url.split('?')[0]} not found`)),
  );
});

/** `Key (patient_profile_id)=(…) is not present…` → ` (patient_profile_id)` */
function referencedColumn(detail: string | undefined): string {
  const match = detail ? /^Key \(([a-z_]+)\)/.exec(detail) : null;
  return match?.[1] ? ` (${match[1]})` : '';
}
