// The authenticator protocol: what the phone app (PWA) and its command-line twin say to the auth server, and
// how they sign it. Pure TypeScript on WebCrypto (globalThis.crypto.subtle) and fetch, so that it runs the same
// in a browser, a service worker and Node. The server verifies with the same canonical form and algorithm.
//
// Keys: ECDSA P-256. Signatures: ECDSA with SHA-256 over the UTF-8 bytes of a canonical JSON payload, in the
// WebCrypto (IEEE P1363, r||s) form, base64url. A key is named by its RFC 7638 JWK thumbprint (`keyId`).
//
// Every signed payload names its purpose (`typ`) and the auth server it is meant for (`aud` = issuer), so a
// signature made for one purpose or server is useless for another. Decisions cover the request id and the
// server's nonce of that request; the server accepts one decision per request, so a replay is refused.

import { canonicalJson } from '../common/canonical-json.ts';
import {
  checkDocumentSignedAttributes,
  MAX_SIGNED_ATTRIBUTES_BYTES,
  SignedAttributesError,
} from './signed-attributes.ts';

export { checkDocumentSignedAttributes, SignedAttributesError } from './signed-attributes.ts';
export type { DocumentSignedAttributes } from './signed-attributes.ts';

// ---------------------------------------------------------------------------------------------------------
// Minimal platform types (the shared package compiles without DOM or Node typings).

/** An opaque WebCrypto key (CryptoKey in browsers and Node). */
export interface CryptoKeyHandle {
  readonly type: string;
  readonly extractable: boolean;
}

export interface CryptoKeyPairHandle {
  publicKey: CryptoKeyHandle;
  privateKey: CryptoKeyHandle;
}

interface SubtleLike {
  generateKey(algorithm: object, extractable: boolean, usages: string[]): Promise<unknown>;
  importKey(
    format: 'jwk',
    key: object,
    algorithm: object,
    extractable: boolean,
    usages: string[],
  ): Promise<unknown>;
  exportKey(format: 'jwk', key: CryptoKeyHandle): Promise<unknown>;
  sign(algorithm: object, key: CryptoKeyHandle, data: Uint8Array): Promise<ArrayBuffer>;
  verify(algorithm: object, key: CryptoKeyHandle, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
  digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer>;
}

interface CryptoLike {
  subtle: SubtleLike;
  getRandomValues<T extends Uint8Array>(array: T): T;
}

export interface FetchResponseLike {
  status: number;
  ok: boolean;
  json(): Promise<unknown>;
}

export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<FetchResponseLike>;

const platform = globalThis as unknown as {
  crypto?: CryptoLike;
  fetch?: FetchLike;
  TextEncoder?: new () => { encode(text: string): Uint8Array };
  setTimeout?: (callback: () => void, ms: number) => unknown;
};

function webCrypto(): CryptoLike {
  if (!platform.crypto?.subtle) throw new Error('WebCrypto (crypto.subtle) is not available');
  return platform.crypto;
}

// ---------------------------------------------------------------------------------------------------------
// Encoding

export function utf8(text: string): Uint8Array {
  if (platform.TextEncoder) return new platform.TextEncoder().encode(text);
  const bytes: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    else
      bytes.push(
        0xf0 | (code >> 18),
        0x80 | ((code >> 12) & 63),
        0x80 | ((code >> 6) & 63),
        0x80 | (code & 63),
      );
  }
  return new Uint8Array(bytes);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function base64url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + B64[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += B64[n >> 18]! + B64[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]!;
  }
  return out;
}

export function fromBase64url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new Error('Invalid base64url');
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text) {
    buffer = (buffer << 6) | B64.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((buffer >> bits) & 0xff);
    }
  }
  return new Uint8Array(out);
}

// ---------------------------------------------------------------------------------------------------------
// Keys and signatures

export interface PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

const ECDSA_KEY = { name: 'ECDSA', namedCurve: 'P-256' };
const ECDSA_SIGN = { name: 'ECDSA', hash: 'SHA-256' };

/** A new authenticator key pair. In the PWA the private key stays non-extractable (kept in IndexedDB). */
export async function generateAuthenticatorKey(extractable = false): Promise<CryptoKeyPairHandle> {
  return (await webCrypto().subtle.generateKey(ECDSA_KEY, extractable, [
    'sign',
    'verify',
  ])) as CryptoKeyPairHandle;
}

export async function exportPublicJwk(publicKey: CryptoKeyHandle): Promise<PublicJwk> {
  const jwk = (await webCrypto().subtle.exportKey('jwk', publicKey)) as Partial<PublicJwk>;
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.x || !jwk.y) throw new Error('Not a P-256 public key');
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
}

/** For stores that keep keys as JWK (the command-line authenticator): export needs an extractable key. */
export async function exportPrivateJwk(privateKey: CryptoKeyHandle): Promise<Record<string, string>> {
  return (await webCrypto().subtle.exportKey('jwk', privateKey)) as Record<string, string>;
}

export async function importPrivateJwk(jwk: Record<string, string>): Promise<CryptoKeyHandle> {
  return (await webCrypto().subtle.importKey('jwk', jwk, ECDSA_KEY, false, ['sign'])) as CryptoKeyHandle;
}

export async function importPublicJwk(jwk: PublicJwk): Promise<CryptoKeyHandle> {
  const clean = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
  return (await webCrypto().subtle.importKey('jwk', clean, ECDSA_KEY, true, ['verify'])) as CryptoKeyHandle;
}

/** RFC 7638 thumbprint (SHA-256, base64url): the key id. */
export async function jwkThumbprint(jwk: PublicJwk): Promise<string> {
  const members = canonicalJson({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return base64url(new Uint8Array(await webCrypto().subtle.digest('SHA-256', utf8(members))));
}

export async function sha256Base64url(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === 'string' ? utf8(data) : data;
  return base64url(new Uint8Array(await webCrypto().subtle.digest('SHA-256', bytes)));
}

export async function signCanonical(privateKey: CryptoKeyHandle, payload: SignedPayload): Promise<string> {
  const signature = await webCrypto().subtle.sign(ECDSA_SIGN, privateKey, utf8(canonicalJson(payload)));
  return base64url(new Uint8Array(signature));
}

export async function verifyCanonical(
  publicJwk: PublicJwk,
  payload: SignedPayload,
  signature: string,
): Promise<boolean> {
  let bytes: Uint8Array;
  try {
    bytes = fromBase64url(signature);
  } catch {
    return false;
  }
  if (bytes.length !== 64) return false;
  const key = await importPublicJwk(publicJwk);
  return webCrypto().subtle.verify(ECDSA_SIGN, key, bytes, utf8(canonicalJson(payload)));
}

/** Verifies an ECDSA P-256/SHA-256 signature (P1363, base64url) over raw bytes: a document signature. */
export async function verifyBytes(
  publicJwk: PublicJwk,
  data: Uint8Array,
  signature: string,
): Promise<boolean> {
  let bytes: Uint8Array;
  try {
    bytes = fromBase64url(signature);
  } catch {
    return false;
  }
  if (bytes.length !== 64) return false;
  const key = await importPublicJwk(publicJwk);
  return webCrypto().subtle.verify(ECDSA_SIGN, key, bytes, data);
}

export function randomToken(bytes = 32): string {
  return base64url(webCrypto().getRandomValues(new Uint8Array(bytes)));
}

// ---------------------------------------------------------------------------------------------------------
// Signed payloads

export const PROTOCOL_VERSION = 1;

/** Enrollment: proves possession of the new key and binds it to the code. */
export interface EnrollPayload {
  typ: 'careplane-enroll';
  v: 1;
  aud: string;
  code: string;
  keyId: string;
}

/** Listing the pending requests of the key's identity (read only; valid for a short time). */
export interface PendingPayload {
  typ: 'careplane-pending';
  v: 1;
  aud: string;
  keyId: string;
  iat: number;
}

/** Approving or denying one request: covers its id, the server's nonce and what was shown. */
export interface DecisionPayload {
  typ: 'careplane-decision';
  v: 1;
  aud: string;
  keyId: string;
  requestId: string;
  nonce: string;
  decision: 'approve' | 'deny';
  kind: 'login' | 'resource';
  bindingMessage: string | null;
  /** Resource authorization only: what is approved. */
  action?: string;
  resource?: string;
  digest?: string;
  /** Document signing only: what the user was shown (the title, the uploaded file's SHA-256, the time). */
  title?: string;
  documentSha256?: string;
  signingTime?: string;
}

/** Claiming a QR session: covers the secret read from the code. */
export interface QrClaimPayload {
  typ: 'careplane-qr-claim';
  v: 1;
  aud: string;
  keyId: string;
  secret: string;
  iat: number;
}

export type SignedPayload = EnrollPayload | PendingPayload | DecisionPayload | QrClaimPayload;

// ---------------------------------------------------------------------------------------------------------
// Wire shapes

export interface PendingRequest {
  id: string;
  kind: 'login' | 'resource';
  clientId: string;
  clientName: string;
  bindingMessage: string | null;
  /** Sign-in: scope. Resource authorization: action, resource, digest, description. */
  details: Record<string, unknown>;
  nonce: string;
  /** When it was asked (ISO 8601): the server lists the newest first. */
  createdAt: string;
  expiresAt: string;
}

/**
 * The order the auth server lists pending requests in (newest first, then by id), for merging the lists of
 * several identities without changing it: the request the person just started comes first.
 */
export function newestFirst(a: PendingRequest, b: PendingRequest): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

/** The action of a resource authorization that signs a PDF (its details are DocumentSignDetails). */
export const DOCUMENT_SIGN_ACTION = 'document.sign';

/**
 * What a document-signing request carries beside the usual action, resource and digest: the document's title
 * and the SHA-256 (hex) of the uploaded file, to compare with the console; the DER signed attributes to sign
 * (base64url), whose SHA-256 is the request's digest; the claimed signing time; the SHA-256 (hex) of the
 * certificate the platform issued for the key, which the signed attributes must name; and that key's id (only
 * that authenticator can answer).
 */
export interface DocumentSignDetails {
  action: typeof DOCUMENT_SIGN_ACTION;
  resource: string;
  digest: string;
  title: string;
  documentSha256: string;
  signedAttributes: string;
  signingTime: string;
  certificateSha256: string;
  keyId: string;
  description?: string;
}

export const MAX_DOCUMENT_TITLE = 200;

/** The details of a document-signing request, checked; throws SignedAttributesError naming what is wrong. */
export function documentSignDetails(details: Record<string, unknown>): DocumentSignDetails {
  const str = (name: string, pattern: RegExp, max = 256) => {
    const value = details[name];
    if (typeof value !== 'string' || value.length > max || !pattern.test(value) || value.includes('\u0000')) {
      throw new SignedAttributesError(`The request's ${name} is missing or malformed`);
    }
    return value;
  };
  if (details.action !== DOCUMENT_SIGN_ACTION)
    throw new SignedAttributesError('Not a document signing request');
  const description = details.description;
  return {
    action: DOCUMENT_SIGN_ACTION,
    resource: str('resource', /^documents\/[0-9a-f-]{36}$/),
    digest: str('digest', /^[A-Za-z0-9_-]{43}$/),
    title: str('title', /^[\s\S]*$/, MAX_DOCUMENT_TITLE),
    documentSha256: str('documentSha256', /^[0-9a-f]{64}$/),
    signedAttributes: str(
      'signedAttributes',
      /^[A-Za-z0-9_-]+$/,
      Math.ceil((MAX_SIGNED_ATTRIBUTES_BYTES * 4) / 3),
    ),
    signingTime: str('signingTime', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/),
    certificateSha256: str('certificateSha256', /^[0-9a-f]{64}$/),
    keyId: str('keyId', /^[A-Za-z0-9_-]{43}$/),
    ...(typeof description === 'string' ? { description } : {}),
  };
}

export const isDocumentSignRequest = (request: Pick<PendingRequest, 'kind' | 'details'>) =>
  request.kind === 'resource' && request.details.action === DOCUMENT_SIGN_ACTION;

/**
 * Everything the authenticator checks before it signs a document: the request names this key, its digest is
 * the SHA-256 of the signed attributes, and those are a document signature for the announced certificate.
 * Returns the DER bytes to sign; throws SignedAttributesError otherwise.
 */
export async function checkDocumentSignRequest(
  request: Pick<PendingRequest, 'kind' | 'details'>,
  keyId: string,
): Promise<{ details: DocumentSignDetails; signedAttributes: Uint8Array }> {
  if (request.kind !== 'resource') throw new SignedAttributesError('Not a document signing request');
  const details = documentSignDetails(request.details);
  if (details.keyId !== keyId) {
    throw new SignedAttributesError('This request is for another authenticator of the same identity');
  }
  let signedAttributes: Uint8Array;
  try {
    signedAttributes = fromBase64url(details.signedAttributes);
  } catch {
    throw new SignedAttributesError('The signed attributes are not base64url');
  }
  if ((await sha256Base64url(signedAttributes)) !== details.digest) {
    throw new SignedAttributesError('The digest is not the SHA-256 of the signed attributes');
  }
  checkDocumentSignedAttributes(signedAttributes, details);
  return { details, signedAttributes };
}

export interface EnrollResult {
  keyId: string;
  username: string;
  firstName: string;
  lastName: string;
  /** The auth server's issuer, where this key is enrolled. */
  issuer: string;
}

export interface QrClaimResult {
  /** The sign-in request created for this identity; approve it like any other. */
  requestId: string;
  clientId: string;
  bindingMessage: string | null;
}

export class AuthenticatorError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'AuthenticatorError';
  }
}

/** The parameters of a link's fragment and query (fragment first), without relying on URL. */
function linkParams(link: string): Map<string, string> {
  const params = new Map<string, string>();
  const hashAt = link.indexOf('#');
  const queryAt = link.indexOf('?');
  const parts = [
    hashAt >= 0 ? link.slice(hashAt + 1) : '',
    queryAt >= 0 ? link.slice(queryAt + 1, hashAt > queryAt ? hashAt : undefined) : '',
  ];
  for (const part of parts) {
    for (const pair of part.split('&')) {
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = decodeURIComponent(pair.slice(0, eq));
      if (!params.has(name)) params.set(name, decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' ')));
    }
  }
  return params;
}

const isLink = (input: string) => /^https?:\/\//i.test(input);

/** Enrollment links: `<issuer>/authenticator/enroll#code=<code>` (the code never reaches a server log). */
export function parseEnrollmentInput(input: string): { code: string; issuer?: string } {
  const trimmed = input.trim();
  if (!isLink(trimmed)) return { code: trimmed };
  const params = linkParams(trimmed);
  const code = params.get('code');
  if (!code) throw new Error('The enrollment link carries no code');
  const issuer = params.get('issuer');
  return issuer ? { code, issuer } : { code };
}

/** QR links: `<issuer>/authenticator/qr#s=<secret>` (optionally `&issuer=`). */
export function parseQrLink(link: string): { secret: string; issuer?: string } {
  const params = linkParams(link.trim());
  const secret = params.get('s');
  if (!secret) throw new Error('The link carries no sign-in secret');
  const issuer = params.get('issuer');
  return issuer ? { secret, issuer } : { secret };
}

// ---------------------------------------------------------------------------------------------------------
// Client

export interface AuthenticatorKey {
  keyId: string;
  privateKey: CryptoKeyHandle;
}

export interface AuthenticatorClientOptions {
  /** The auth server's issuer, e.g. https://careplane.example/auth. */
  issuer: string;
  fetch?: FetchLike;
  /** Seconds since the epoch; tests move the clock. */
  now?: () => number;
}

export class AuthenticatorClient {
  readonly issuer: string;
  private readonly fetchImpl: FetchLike;
  private readonly now: () => number;

  constructor(options: AuthenticatorClientOptions) {
    this.issuer = options.issuer.replace(/\/$/, '');
    // A browser refuses its own fetch called as a method of another object ("Illegal invocation").
    const fetchImpl = options.fetch ?? platform.fetch?.bind(globalThis);
    if (!fetchImpl) throw new Error('fetch is not available');
    this.fetchImpl = fetchImpl;
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  private async call<T>(path: string, body: unknown): Promise<T> {
    const response = await this.fetchImpl(`${this.issuer}/authenticator/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await response.json().catch(() => undefined);
    if (!response.ok) {
      const message =
        json && typeof json === 'object' && 'message' in json
          ? String(json.message)
          : `HTTP ${response.status}`;
      throw new AuthenticatorError(response.status, message, json);
    }
    return json as T;
  }

  /** Binds a new key to the identity of an enrollment code. Returns the key id to keep with the key. */
  async enroll(code: string, keyPair: CryptoKeyPairHandle, label?: string): Promise<EnrollResult> {
    const publicJwk = await exportPublicJwk(keyPair.publicKey);
    const keyId = await jwkThumbprint(publicJwk);
    const payload: EnrollPayload = { typ: 'careplane-enroll', v: 1, aud: this.issuer, code, keyId };
    const signature = await signCanonical(keyPair.privateKey, payload);
    return this.call<EnrollResult>('enroll', { code, publicJwk, signature, ...(label ? { label } : {}) });
  }

  async pending(key: AuthenticatorKey): Promise<PendingRequest[]> {
    const payload: PendingPayload = {
      typ: 'careplane-pending',
      v: 1,
      aud: this.issuer,
      keyId: key.keyId,
      iat: this.now(),
    };
    const signature = await signCanonical(key.privateKey, payload);
    const result = await this.call<{ requests: PendingRequest[] }>('pending', {
      keyId: key.keyId,
      iat: payload.iat,
      signature,
    });
    return result.requests;
  }

  /** The payload an approval or denial signs; exposed so that a UI can show exactly what is signed. */
  decisionPayload(
    key: AuthenticatorKey,
    request: PendingRequest,
    decision: 'approve' | 'deny',
  ): DecisionPayload {
    const details = request.details;
    const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
    return {
      typ: 'careplane-decision',
      v: 1,
      aud: this.issuer,
      keyId: key.keyId,
      requestId: request.id,
      nonce: request.nonce,
      decision,
      kind: request.kind,
      bindingMessage: request.bindingMessage,
      ...(request.kind === 'resource'
        ? {
            action: str(details.action),
            resource: str(details.resource),
            digest: str(details.digest),
            title: str(details.title),
            documentSha256: str(details.documentSha256),
            signingTime: str(details.signingTime),
          }
        : {}),
    };
  }

  /**
   * Approving a document-signing request also signs its DER signed attributes (ECDSA P-256/SHA-256, P1363,
   * base64url), once they pass checkDocumentSignRequest; a request that does not pass is never signed.
   */
  async decide(
    key: AuthenticatorKey,
    request: PendingRequest,
    decision: 'approve' | 'deny',
  ): Promise<{ status: 'approved' | 'denied' }> {
    let documentSignature: string | undefined;
    if (decision === 'approve' && isDocumentSignRequest(request)) {
      const { signedAttributes } = await checkDocumentSignRequest(request, key.keyId);
      documentSignature = base64url(
        new Uint8Array(await webCrypto().subtle.sign(ECDSA_SIGN, key.privateKey, signedAttributes)),
      );
    }
    const payload = this.decisionPayload(key, request, decision);
    const signature = await signCanonical(key.privateKey, payload);
    return this.call('decide', {
      keyId: key.keyId,
      requestId: request.id,
      decision,
      signature,
      ...(documentSignature ? { documentSignature } : {}),
    });
  }

  approve(key: AuthenticatorKey, request: PendingRequest) {
    return this.decide(key, request, 'approve');
  }

  deny(key: AuthenticatorKey, request: PendingRequest) {
    return this.decide(key, request, 'deny');
  }

  /** Claims a QR session: the server starts a sign-in for this key's identity and returns its request. */
  async claimQr(key: AuthenticatorKey, secretOrLink: string): Promise<QrClaimResult> {
    const secret = isLink(secretOrLink) ? parseQrLink(secretOrLink).secret : secretOrLink;
    const payload: QrClaimPayload = {
      typ: 'careplane-qr-claim',
      v: 1,
      aud: this.issuer,
      keyId: key.keyId,
      secret,
      iat: this.now(),
    };
    const signature = await signCanonical(key.privateKey, payload);
    return this.call<QrClaimResult>('qr/claim', { keyId: key.keyId, secret, iat: payload.iat, signature });
  }

  /**
   * Waits until a request is pending (polling every `intervalMs`) and answers the newest; undefined when none
   * came in time.
   */
  async waitForPending(
    key: AuthenticatorKey,
    options: { timeoutMs: number; intervalMs?: number; kind?: 'login' | 'resource'; exclude?: Set<string> },
  ): Promise<PendingRequest | undefined> {
    const deadline = Date.now() + options.timeoutMs;
    for (;;) {
      const requests = await this.pending(key);
      const match = requests.find(
        (request) => (!options.kind || request.kind === options.kind) && !options.exclude?.has(request.id),
      );
      if (match) return match;
      if (Date.now() >= deadline) return undefined;
      const delay = Math.max(0, Math.min(options.intervalMs ?? 1000, deadline - Date.now()));
      await new Promise<void>((resolve) => platform.setTimeout!(resolve, delay));
    }
  }
}
