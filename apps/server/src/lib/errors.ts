// The one error type of the server. Services throw it; the error handler turns it into the error body, in the
// request's language: a refusal's message is a `Text` (English and Thai, lib/service-texts.ts), or one of the
// handler's own fixed messages (plugins/error-texts.ts).
import { STATUS_CODES } from 'node:http';
import type { IssueLike } from '@careplane/shared/i18n/validation-texts';
import { notFoundText, serviceTexts, type RecordName, type Text } from './service-texts.js';

export { serviceTexts } from './service-texts.js';
export type { RecordName, Text } from './service-texts.js';

export interface ErrorIssue {
  path: string;
  /** In English, as written or as zod's error map said it; the error handler answers in the reader's language. */
  message: string;
  /** The zod issue it came from (code and parameters, path without the request part): never sent. */
  source?: IssueLike;
  /**
   * The message is a value for programs (a 409's `status` names the status the record has now), not a
   * sentence: it is sent as it is in every language. Never sent itself.
   */
  value?: true;
}

/** The issues of a failed zod parse of one part of a request (`body`, `query`). */
export const zodIssues = (
  part: string,
  issues: readonly ({ message: string; path: readonly PropertyKey[] } & IssueLike)[],
): ErrorIssue[] =>
  issues.map((issue) => ({
    path: [part, ...issue.path.map(String)].join('.'),
    message: issue.message,
    source: issue,
  }));

/** Every refusal's body: `{ statusCode, error, message, issues? }`, the message already in the reader's language. */
export const errorBody = (
  statusCode: number,
  message: string,
  issues?: readonly { path: string; message: string }[],
) => ({
  statusCode,
  error: STATUS_CODES[statusCode] ?? 'Error',
  message,
  ...(issues ? { issues: issues.map(({ path, message }) => ({ path, message })) } : {}),
});

export class AppError extends Error {
  /** Seconds after which trying again may succeed: sent as Retry-After (429, 503). */
  retryAfter?: number;
  /** The message in each language; `message` is its English (the logs'). */
  readonly text?: Text;

  /**
   * `message` is a `Text`, or a string only for the handler's fixed messages (`Invalid request`), which it
   * translates itself; a refusal a service writes is a `Text`, so it cannot lack its Thai.
   */
  constructor(
    readonly statusCode: number,
    message: Text | FixedMessage,
    readonly issues?: ErrorIssue[],
  ) {
    super(typeof message === 'string' ? message : message.en);
    if (typeof message !== 'string') this.text = message;
    this.name = 'AppError';
  }
}

/** The 400s whose message the handler translates (plugins/error-texts.ts): their issues say what is wrong. */
export type FixedMessage = 'Invalid request' | 'Invalid fields' | 'Invalid prescription' | 'Invalid value';

export const badRequest = (message: Text | FixedMessage, issues?: ErrorIssue[]) =>
  new AppError(400, message, issues);
export const unauthorized = (message: Text = serviceTexts.authenticationRequired) =>
  new AppError(401, message);
export const forbidden = (message: Text = serviceTexts.notAllowed) => new AppError(403, message);
export const notFound = (what: RecordName = 'Record') => new AppError(404, notFoundText(what));
export const conflict = (message: Text) => new AppError(409, message);
export const tooManyRequests = (message: Text, retryAfter: number) =>
  Object.assign(new AppError(429, message), { retryAfter });
export const unavailable = (message: Text, retryAfter: number) =>
  Object.assign(new AppError(503, message), { retryAfter });
