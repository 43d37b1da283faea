// What the token route does with a request's body before the provider sees it: reads it once (to answer a
// pending CIBA poll, poll-answers.ts, or a plain refresh, refresh-answers.ts, itself) and hands the provider
// the request again with that body, a refresh that asks again for `openid` given the scope without it
// (decision 053).
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';

/** The provider's own limit for a form body (oidc-provider's selective_body); above it the provider refuses. */
const MAX_BODY = 56 * 1024;
const FORM = 'application/x-www-form-urlencoded';
/** A poll's or a refresh's body is about 120 bytes; anything much larger is neither (and goes to the provider). */
const MAX_ANSWERED_BODY = 1024;

export interface TokenRouteSettings {
  /** Clients that poll without authenticating (token_endpoint_auth_method none) and may use CIBA. */
  publicCibaClients: ReadonlySet<string>;
  /** Clients that refresh without authenticating and may use refresh tokens. */
  publicRefreshClients: ReadonlySet<string>;
  /** The one origin the provider allows a browser to call from (its clientBasedCORS). */
  allowedOrigin: string;
}

/** An answer the token route writes itself, in the provider's format. */
export interface TokenAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Whether the token route may answer a request itself (its body is then read): a small form of a client that
 * does not authenticate. Client authentication, DPoP and a foreign origin are the provider's to judge.
 */
export function mayAnswer(headers: IncomingHttpHeaders, settings: TokenRouteSettings): boolean {
  return (
    readsBody(headers) &&
    Number(headers['content-length']) <= MAX_ANSWERED_BODY &&
    headers.authorization === undefined &&
    headers.dpop === undefined &&
    (headers.origin === undefined || headers.origin === settings.allowedOrigin)
  );
}

/**
 * Whether every parameter of a body is one of `names`, given once and not empty (any other body the provider
 * judges: a parameter twice, an unexpected one or an empty one, it says what is wrong with it).
 */
export function onlyOnce(params: URLSearchParams, names: ReadonlySet<string>): boolean {
  const seen = new Set<string>();
  for (const [name, value] of params) {
    if (!names.has(name) || seen.has(name) || value === '') return false;
    seen.add(name);
  }
  return true;
}

/** A JSON answer with the provider's headers: its CORS headers for the allowed origin, no-store. */
export function jsonAnswer(
  status: number,
  text: string,
  headers: IncomingHttpHeaders,
  language?: string,
): TokenAnswer {
  return {
    status,
    headers: {
      vary: 'Origin',
      ...(language ? { 'content-language': language } : {}),
      'access-control-allow-origin': headers.origin ?? '*',
      'access-control-expose-headers': 'WWW-Authenticate',
      'cache-control': 'no-store',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
    },
    body: text,
  };
}

/** Whether the token route reads the body: a form of known length the provider would read too. */
export function readsBody(headers: IncomingHttpHeaders): boolean {
  const length = Number(headers['content-length']);
  const type = headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
  return type === FORM && Number.isSafeInteger(length) && length > 0 && length <= MAX_BODY;
}

/** The request's body, read whole (its length is known and bounded: readsBody). */
export function readBody(raw: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    raw.once('error', reject);
  });
}

/**
 * A refresh's body with `openid` taken out of its `scope` (and `scope` left out when nothing else was asked).
 *
 * Refresh tokens are kept without `openid`, so that a refresh answers no id_token (decision 053). A client may
 * still repeat on refresh the scopes it was granted (RFC 6749 § 6), `openid` among them; the provider would
 * refuse that as a scope the refresh token does not hold. Without `openid` the request asks for what the
 * token holds, and is answered without an id_token, as OpenID Connect Core § 12.2 allows. Every other body,
 * and any body with a parameter given twice (the provider refuses those), is returned as it came.
 */
export function refreshWithoutOpenid(body: Buffer): Buffer {
  if (!body.includes('openid')) return body;
  const params = new URLSearchParams(body.toString('utf8'));
  const names = [...params.keys()];
  if (new Set(names).size !== names.length || params.get('grant_type') !== 'refresh_token') return body;
  const scopes = params.get('scope')?.split(' ');
  if (!scopes?.includes('openid')) return body;
  const kept = scopes.filter((scope) => scope !== 'openid');
  if (kept.length > 0) params.set('scope', kept.join(' '));
  else params.delete('scope');
  return Buffer.from(params.toString());
}

/**
 * The request again, its body not yet read, for the provider (which reads the body itself). Everything else
 * the provider and its web framework read of a request (method, url, headers, socket, the caller's address
 * the HTTP server put on it) is the original's, but for the body's length when the body was changed.
 */
export function replay(raw: IncomingMessage, body: Buffer): IncomingMessage {
  const copy = new Readable({ read() {} });
  copy.push(body);
  copy.push(null);
  const length = String(body.length);
  const headers =
    raw.headers['content-length'] === length ? raw.headers : { ...raw.headers, 'content-length': length };
  return Object.create(raw, {
    headers: { value: headers },
    readable: { get: () => copy.readable },
    readableEncoding: { get: () => copy.readableEncoding },
    iterator: { value: copy.iterator.bind(copy) },
    [Symbol.asyncIterator]: { value: copy[Symbol.asyncIterator].bind(copy) },
  }) as IncomingMessage;
}
