// The auth server's own tables (prefix auth_): identities, authenticator keys, enrollment codes, sign-in and
// resource-authorization requests, QR sessions, signing keys, and the OpenID Provider's stored artifacts
// (grants, CIBA requests, refresh tokens). Nothing here references the application's tables.
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A public JWK of an authenticator key (ECDSA P-256). */
export interface AuthPublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

export const authIdentities = pgTable(
  'auth_identities',
  {
    id: id(),
    /** name@domain, lower case. */
    username: text('username').notNull().unique(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email'),
    phoneNumber: text('phone_number'),
    title: text('title'),
    assuranceLevel: text('assurance_level').notNull().default('low'),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    disabledAt: at('disabled_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('auth_identities_created_at_idx').on(t.createdAt)],
);

export const authAuthenticatorKeys = pgTable(
  'auth_authenticator_keys',
  {
    /** RFC 7638 thumbprint of the public key: the key id the authenticator signs with. */
    id: text('id').primaryKey(),
    identityId: uuid('identity_id')
      .notNull()
      .references(() => authIdentities.id, { onDelete: 'cascade' }),
    publicJwk: jsonb('public_jwk').$type<AuthPublicJwk>().notNull(),
    label: text('label'),
    createdAt: createdAt(),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('auth_authenticator_keys_identity_idx').on(t.identityId)],
);

export const authEnrollmentCodes = pgTable(
  'auth_enrollment_codes',
  {
    id: id(),
    identityId: uuid('identity_id')
      .notNull()
      .references(() => authIdentities.id, { onDelete: 'cascade' }),
    /** SHA-256 of the code; the code itself is shown once and never stored. */
    codeHash: text('code_hash').notNull().unique(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    /** The authenticator key bound by this code. */
    keyId: text('key_id'),
    createdAt: createdAt(),
  },
  (t) => [index('auth_enrollment_codes_identity_idx').on(t.identityId)],
);

/** What an authenticator is asked to approve: a sign-in, or one action on a resource. */
export const authRequests = pgTable(
  'auth_requests',
  {
    id: id(),
    kind: text('kind').$type<'login' | 'resource'>().notNull(),
    /** Null for a sign-in asked for an unknown identifier: stored alike, never shown, never approved. */
    identityId: uuid('identity_id').references(() => authIdentities.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    bindingMessage: text('binding_message'),
    /** Sign-in: the requested scope. Resource authorization: action, resource, digest, description. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    /** The OpenID Provider's auth_req_id of a sign-in. */
    authReqId: text('auth_req_id').unique(),
    /** Server nonce every decision signature must cover. */
    nonce: text('nonce').notNull(),
    status: text('status').$type<'pending' | 'approved' | 'denied'>().notNull().default('pending'),
    expiresAt: at('expires_at').notNull(),
    decidedAt: at('decided_at'),
    keyId: text('key_id'),
    /** The signed canonical decision and its signature (resource authorizations hand them to the caller). */
    signedPayload: text('signed_payload'),
    signature: text('signature'),
    /** Document signing: the phone's signature over the request's signed attributes (P1363, base64url). */
    documentSignature: text('document_signature'),
    /** Resource authorization: last poll, for slow_down. */
    polledAt: at('polled_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('auth_requests_identity_status_idx').on(t.identityId, t.status),
    index('auth_requests_expires_at_idx').on(t.expiresAt),
  ],
);

export const authQrSessions = pgTable(
  'auth_qr_sessions',
  {
    /** Random and unguessable: whoever holds it can follow the session to its sign-in. */
    id: text('id').primaryKey(),
    clientId: text('client_id').notNull(),
    /** SHA-256 of the current and the previous QR secret (the previous one stays valid for one period). */
    secretHash: text('secret_hash').notNull(),
    previousSecretHash: text('previous_secret_hash'),
    secretIssuedAt: at('secret_issued_at').notNull(),
    status: text('status').$type<'pending' | 'claimed'>().notNull().default('pending'),
    identityId: uuid('identity_id').references(() => authIdentities.id, { onDelete: 'cascade' }),
    authReqId: text('auth_req_id'),
    bindingMessage: text('binding_message'),
    expiresAt: at('expires_at').notNull(),
    claimedAt: at('claimed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('auth_qr_sessions_secret_idx').on(t.secretHash),
    index('auth_qr_sessions_previous_secret_idx').on(t.previousSecretHash),
    index('auth_qr_sessions_expires_at_idx').on(t.expiresAt),
  ],
);

/** ES256 signing keys. The newest active key signs; retired keys stay published until their tokens expire. */
export const authSigningKeys = pgTable('auth_signing_keys', {
  kid: text('kid').primaryKey(),
  /** Only in databases written before keys were sealed; the key store seals it and clears this column. */
  privateJwk: jsonb('private_jwk').$type<Record<string, string>>(),
  /** The private JWK, sealed with the server's encryption key (lib/secret-box.ts). */
  privateJwkSealed: text('private_jwk_sealed'),
  publicJwk: jsonb('public_jwk').$type<Record<string, string>>().notNull(),
  createdAt: createdAt(),
  retiredAt: at('retired_at'),
  /** Retired keys leave the JWKS after this moment. */
  publishUntil: at('publish_until'),
});

/** The OpenID Provider's artifacts, one row per (model, id): Grant, BackchannelAuthenticationRequest, RefreshToken... */
export const authOidcPayloads = pgTable(
  'auth_oidc_payloads',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: at('expires_at'),
    consumedAt: at('consumed_at'),
    /** CIBA: the last token-endpoint poll that was let through (slow_down below the interval). */
    polledAt: at('polled_at'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('auth_oidc_payloads_grant_idx').on(t.grantId),
    index('auth_oidc_payloads_uid_idx').on(t.uid),
    index('auth_oidc_payloads_user_code_idx').on(t.userCode),
    index('auth_oidc_payloads_expires_at_idx').on(t.expiresAt),
  ],
);
