// One error handler: every failure answers { statusCode, error, message, issues? }; 5xx hide internals. A
// database that cannot be reached, or that is too slow (a statement or lock deadline passed), is a 503 with
// Retry-After: the client may try again; it is not a bug. A refusal speaks the request's language
// (Accept-Language; decision 048): its message and every issue's, each naming the field.
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { pickLanguage } from '@careplane/shared/i18n/languages';
import {
  DATABASE_AWAY_MESSAGE,
  isDatabaseUnavailable,
  OUTAGE_RETRY_AFTER_SECONDS,
  type OutageWatch,
} from '@/lib/database-outage.js';
import { AppError, errorBody, serviceTexts, type ErrorIssue, type Text } from '@/lib/errors.js';
import { localizeIssues, localizeMessage } from './error-texts.js';

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

/**
 * The unique values a client chooses, by the constraint that keeps them unique: the body's field that holds
 * one, and what a person reads when it is taken. Other constraints are named as they are (their values are
 * the server's own, and a duplicate there is not the sender's to mend).
 */
const takenValues: Partial<Record<string, { field: string; text: Text }>> = {
  users_username_unique: { field: 'username', text: serviceTexts.usernameTaken },
  users_master_id_unique: { field: 'masterId', text: serviceTexts.identityLinkedElsewhere },
  users_patient_profile_id_unique: { field: 'patientProfile', text: serviceTexts.patientProfileTaken },
  iot_devices_hardware_identifier_unique: {
    field: 'hardwareIdentifier',
    text: serviceTexts.hardwareIdentifierTaken,
  },
  workstations_device_id_unique: { field: 'device', text: serviceTexts.deviceHasWorkstation },
};

/** Database errors that are the client's fault, by SQLSTATE, in both languages. */
function fromDatabase(
  error: PgError,
): { status: number; message: Text; field?: string; retryAfter?: number } | undefined {
  const fixed = (en: string): Text => ({ en, th: localizeMessage(en, 'th') });
  switch (error.code) {
    case '23505': {
      const taken = error.constraint ? takenValues[error.constraint] : undefined;
      return taken
        ? { status: 409, message: taken.text, field: taken.field }
        : { status: 409, message: serviceTexts.duplicateValue(error.constraint ?? 'unique') };
    }
    case '23503':
      return {
        status: 400,
        message: serviceTexts.referencedRecordMissing(
          error.column ? ` (${error.column})` : referencedColumn(error.detail),
        ),
      };
    case '23502':
      return { status: 400, message: serviceTexts.requiredValueMissing(error.column ?? '') };
    case '22P02':
    case '22007':
    case '22008':
    case '22003':
    case '22001':
    case '22021':
    case '22P05':
    case '23514':
      return { status: 400, message: fixed('Invalid value') };
    case '40001':
    case '40P01':
      return { status: 409, message: fixed('Concurrent change, try again') };
    case '57014':
      // statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS)
      return {
        status: 503,
        message: fixed('The database took too long to answer: try again shortly'),
        retryAfter: 2,
      };
    case '55P03':
      // lock_timeout (DATABASE_LOCK_TIMEOUT_MS)
      return {
        status: 503,
        message: fixed('The records this needs are busy with another change: try again shortly'),
        retryAfter: 1,
      };
    default:
      return undefined;
  }
}

/**
 * Fastify's own refusals, and its plugins', by their code: the same English, and its Thai. Made before a route
 * answers (a body Fastify or the multipart reader refuses, an address that cannot be read), or by the rate
 * limiter, whose refusal has no code and is known by its status and words. Validation is zod's (above).
 */
const fastifyRefusals: Partial<
  Record<string, (error: FastifyError, bodyLimit?: number) => Text | undefined>
> = {
  FST_ERR_CTP_BODY_TOO_LARGE: (_error, bodyLimit) =>
    serviceTexts.bodyTooLarge(bodyLimit ? Math.max(1, Math.round(bodyLimit / 1024 / 1024)) : undefined),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => serviceTexts.unsupportedMediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => serviceTexts.contentLengthMismatch,
  FST_ERR_CTP_EMPTY_JSON_BODY: () => serviceTexts.emptyJsonBody,
  FST_ERR_CTP_INVALID_JSON_BODY: () => serviceTexts.invalidJsonBody,
  FST_ERR_BAD_URL: () => serviceTexts.addressUnreadable,
  // A path part past the router's limit (http-app.ts): told without echoing the whole address back.
  FST_ERR_MAX_PARAM_LENGTH: () => serviceTexts.addressPartTooLong,
  // @fastify/multipart (documents): more files or fields than an upload takes, a forbidden field name, and a
  // file past the size limit when the reader says so before the upload's own check does. (Its parts limit is
  // above files and fields together, so one of those is met first.) A second file is told in the upload's own
  // words, which say what to send, rather than the reader's "reach files limit".
  FST_FILES_LIMIT: () => serviceTexts.oneFileOnly,
  FST_FIELDS_LIMIT: () => serviceTexts.multipartFieldsLimit,
  FST_REQ_FILE_TOO_LARGE: () => serviceTexts.multipartFileTooLarge,
  FST_PROTO_VIOLATION: () => serviceTexts.multipartForbiddenName,
};

/**
 * The status of a refusal whose plugin gives another: a second file or too many fields is a malformed upload,
 * not a large one (@fastify/multipart answers 413).
 */
const refusalStatuses: Partial<Record<string, number>> = { FST_FILES_LIMIT: 400, FST_FIELDS_LIMIT: 400 };

/**
 * The refusal's text when it is one of Fastify's (or its plugins') own that the server knows, else undefined.
 * `bodyLimit` is the route's, for a body too large to say how much it takes.
 */
export function fastifyRefusal(error: FastifyError, bodyLimit?: number): Text | undefined {
  const known = error.code ? fastifyRefusals[error.code]?.(error, bodyLimit) : undefined;
  if (known) return known;
  // @fastify/rate-limit: "Rate limit exceeded, retry in 1 minute".
  const after = /^Rate limit exceeded, retry in (.+)$/.exec(error.message)?.[1];
  return error.statusCode === 429 && after !== undefined ? serviceTexts.rateLimited(after) : undefined;
}

function unwrapCause(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (isPgError(current)) return current;
    current = (current as Error & { cause?: unknown }).cause;
  }
  return current;
}

export const errorsPlugin = fp(async (app: FastifyInstance, options: { outage?: OutageWatch }) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const language = pickLanguage(request.headers['accept-language']);
    void reply.header('content-language', language);
    if (error instanceof AppError) {
      if (error.retryAfter !== undefined) void reply.header('retry-after', String(error.retryAfter));
      return reply
        .status(error.statusCode)
        .send(
          errorBody(
            error.statusCode,
            error.text ? error.text[language] : localizeMessage(error.message, language),
            error.issues && localizeIssues(error.issues, language),
          ),
        );
    }
    if (isDatabaseUnavailable(error)) {
      // Logged once per outage by the watch, not once per request.
      options.outage?.failed(error);
      return reply
        .status(503)
        .header('retry-after', String(OUTAGE_RETRY_AFTER_SECONDS))
        .send(errorBody(503, localizeMessage(DATABASE_AWAY_MESSAGE, language)));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues: ErrorIssue[] = error.validation.map((issue) => {
        const path = issue.instancePath.split('/').filter(Boolean);
        return {
          path: [error.validationContext, ...path].join('.'),
          message: issue.message ?? 'Invalid value',
          source: { ...issue.params, code: issue.keyword, path: path.map(indexOrKey) },
        };
      });
      return reply
        .status(400)
        .send(errorBody(400, localizeMessage('Invalid request', language), localizeIssues(issues, language)));
    }
    const cause = unwrapCause(error);
    if (isPgError(cause)) {
      const mapped = fromDatabase(cause);
      if (mapped?.retryAfter !== undefined) {
        request.log.warn({ err: error }, 'a database deadline passed');
        void reply.header('retry-after', String(mapped.retryAfter));
      }
      if (mapped) {
        const message = mapped.message[language];
        // The form that sent it shows the refusal on the field that holds the taken value.
        const issues = mapped.field ? [{ path: `body.${mapped.field}`, message }] : undefined;
        return reply.status(mapped.status).send(errorBody(mapped.status, message, issues));
      }
    }
    const status =
      (error.code ? refusalStatuses[error.code] : undefined) ??
      (typeof error.statusCode === 'number' ? error.statusCode : 500);
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && request.routeOptions.schema?.consumes) {
      // A route that takes an upload says how to send one (a raw PDF body, say), as it does to a JSON body.
      return reply.status(415).send(errorBody(415, serviceTexts.multipartOnly[language]));
    }
    if (status >= 400 && status < 500) {
      // The refusals the server knows in its own texts (mostly Fastify's words, and their Thai), else Fastify's.
      const refusal = fastifyRefusal(error, request.routeOptions.bodyLimit);
      return reply.status(status).send(errorBody(status, refusal?.[language] ?? error.message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(errorBody(500, localizeMessage('Internal server error', language)));
  });

  app.setNotFoundHandler((request, reply) => {
    const language = pickLanguage(request.headers['accept-language']);
    const text = serviceTexts.routeNotFound(request.method, request.url.split('?')[0] ?? '/');
    return reply.status(404).header('content-language', language).send(errorBody(404, text[language]));
  });
});

/** A path segment of `/content/2/name`: a list index is a number, as in the zod issue it came from. */
const indexOrKey = (segment: string): string | number => (/^\d+$/.test(segment) ? Number(segment) : segment);

/** `Key (patient_profile_id)=(…) is not present…` → ` (patient_profile_id)` */
function referencedColumn(detail: string | undefined): string {
  const match = detail ? /^Key \(([a-z_]+)\)/.exec(detail) : null;
  return match?.[1] ? ` (${match[1]})` : '';
}
