// The one client of the application server: JSON in and out, the bearer token of the session, and one error
// type carrying the status and the server's message (the error body of packages/shared/src/common/http.ts).
import i18next from 'i18next';
import type { ErrorBody } from '@careplane/shared/common/http';
import { getRuntimeConfig } from './config.ts';
import { currentLanguage } from './i18n/language.ts';
import { sessionStore } from './session.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, message: string, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

/**
 * A request that never reached the server: the device is offline, or the server or the way to it is down. Its
 * message says which in the reader's words, where the browser would say "Failed to fetch".
 */
export class NetworkError extends Error {
  /** `method`: a read (GET) loads again by itself once online; anything else was not sent, and says so. */
  constructor(cause: unknown, method = 'GET') {
    super(
      i18next.t(
        navigator.onLine === false
          ? method === 'GET'
            ? 'kit:network.offline'
            : 'kit:network.offlineAction'
          : 'kit:network.unreachable',
      ),
      { cause },
    );
    this.name = 'NetworkError';
  }
}

const isErrorBody = (body: unknown): body is ErrorBody =>
  typeof body === 'object' && body !== null && typeof (body as ErrorBody).message === 'string';

type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Send the session's bearer token (default true); throws when the session holds none. */
  authenticated?: boolean;
  signal?: AbortSignal;
  /** What the answer is read as (default json). */
  as?: 'json' | 'blob';
  /** The media type asked for (default application/json). */
  accept?: string;
  /** More request headers (an Idempotency-Key). */
  headers?: Record<string, string>;
}

/** A file the server answered: its bytes and the name its content-disposition gives, if any. */
export interface DownloadedFile {
  blob: Blob;
  fileName: string | null;
}

/** The file name of a content-disposition header: `filename*=UTF-8''…` first, then `filename="…"`. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/.exec(disposition);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
  return name || null;
}

export function apiUrl(path: string, query?: Query): string {
  const url = new URL(path, `${getRuntimeConfig().apiUrl}/`);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
  }
  return url.toString();
}

async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
  // The server answers its messages (validation, errors) in the language the console speaks.
  const headers: Record<string, string> = {
    ...options.headers,
    accept: options.accept ?? 'application/json',
    'accept-language': currentLanguage(),
  };
  if (options.authenticated ?? true) headers.authorization = `Bearer ${sessionStore.getAccessToken()}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(apiUrl(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    // fetch fails with a TypeError when no answer came; an abort stays what it is.
    if (error instanceof TypeError) throw new NetworkError(error, method);
    throw error;
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    const message = isErrorBody(body)
      ? body.message
      : response.statusText || i18next.t('kit:requestFailed', { status: response.status });
    throw new ApiError(response.status, message, body);
  }
  return response;
}

async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(method, path, options);
  if (options.as === 'blob') return (await response.blob()) as T;
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
  /** GET a file: its bytes and the file name the server gave it. */
  download: async (path: string, options: RequestOptions = {}): Promise<DownloadedFile> => {
    const response = await send('GET', path, { accept: '*/*', ...options });
    return { blob: await response.blob(), fileName: fileNameOf(response.headers.get('content-disposition')) };
  },
};

/** Spec §9: a data fetch keeps its loading state at least this long, so nothing flickers. */
export const MINIMUM_LOADING_MS = 200;

/** Runs `load` and resolves no earlier than `ms` after the start. */
export async function withMinimumDelay<T>(load: () => Promise<T>, ms = MINIMUM_LOADING_MS): Promise<T> {
  const [result] = await Promise.all([load(), new Promise((resolve) => setTimeout(resolve, ms))]);
  return result;
}
