// The one error type of the server. Services throw it; the error handler turns it into the error body.
import type { IssueLike } from '@careplane/shared/i18n/validation-texts';

export interface ErrorIssue {
  path: string;
  /** In English, as written or as zod's error map said it; the error handler answers in the reader's language. */
  message: string;
  /** The zod issue it came from (code and parameters, path without the request part): never sent. */
  source?: IssueLike;
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

export class AppError extends Error {
  /** Seconds after which trying again may succeed: sent as Retry-After (429, 503). */
  retryAfter?: number;

  constructor(
    readonly statusCode: number,
    message: string,
    readonly issues?: ErrorIssue[],
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, issues?: ErrorIssue[]) => new AppError(400, message, issues);
export const unauthorized = (message = 'Authentication required') => new AppError(401, message);
export const forbidden = (message = 'Not allowed') => new AppError(403, message);
export const notFound = (what = 'Record') => new AppError(404, `${what} not found`);
export const conflict = (message: string) => new AppError(409, message);
export const tooManyRequests = (message: string, retryAfter: number) =>
  Object.assign(new AppError(429, message), { retryAfter });
export const unavailable = (message: string, retryAfter: number) =>
  Object.assign(new AppError(503, message), { retryAfter });
