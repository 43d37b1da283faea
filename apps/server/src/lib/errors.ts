// The one error type of the server. Services throw it; the error handler turns it into the error body.

export interface ErrorIssue {
  path: string;
  message: string;
}

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
