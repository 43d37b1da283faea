// Identities (the auth server's users), their authenticator keys and one-time enrollment codes.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { z } from 'zod';
import {
  jwkThumbprint,
  verifyCanonical,
  type EnrollPayload,
  type EnrollResult,
  type PublicJwk,
} from '@careplane/shared/authenticator/protocol';
import type { Database } from '../db/client.js';
import { authAuthenticatorKeys, authEnrollmentCodes, authIdentities } from '../db/schema/index.js';
import { AppError, badRequest, conflict } from '../lib/errors.js';

export type Identity = typeof authIdentities.$inferSelect;
export type AuthenticatorKeyRow = typeof authAuthenticatorKeys.$inferSelect;

export const usernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(/^[a-z0-9._+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*$/, 'name@domain');

export const identityInputSchema = z.object({
  username: usernameSchema,
  firstName: z.string().trim().min(1).max(100),
  lastName: z.string().trim().min(1).max(100),
  email: z.string().trim().email().max(254).optional(),
  phoneNumber: z.string().trim().max(40).optional(),
  title: z.string().trim().max(100).optional(),
  assuranceLevel: z.enum(['low', 'substantial', 'high']).default('substantial'),
  roles: z
    .array(z.enum(['admin', 'master', 'public']))
    .max(3)
    .default(['public']),
});
export type IdentityInput = z.input<typeof identityInputSchema>;

export const publicJwkSchema = z
  .object({
    kty: z.literal('EC'),
    crv: z.literal('P-256'),
    x: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
    y: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  })
  .strip();

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

// Crockford base32 without look-alikes; 20 characters ≈ 100 bits, typed in groups of four.
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export function newEnrollmentCode(): string {
  const bytes = randomBytes(20);
  let code = '';
  for (let i = 0; i < bytes.length; i++) {
    if (i > 0 && i % 4 === 0) code += '-';
    code += CODE_ALPHABET[bytes[i]! & 31];
  }
  return code;
}
/** Codes are compared without separators and case. */
export const normalizeCode = (code: string) => code.toUpperCase().replace(/[^0-9A-Z]/g, '');

export interface IssuedEnrollment {
  code: string;
  expiresAt: Date;
  /** The authenticator's enrollment link (the code travels in the fragment, never in a request line). */
  link: string;
}

export class IdentityService {
  constructor(
    private readonly db: Database,
    private readonly settings: { issuer: string; publicUrl: string; enrollmentTtl: number },
  ) {}

  async create(input: IdentityInput): Promise<Identity> {
    const parsed = identityInputSchema.parse(input);
    const [identity] = await this.db
      .insert(authIdentities)
      .values({
        ...parsed,
        email: parsed.email ?? null,
        phoneNumber: parsed.phoneNumber ?? null,
        title: parsed.title ?? null,
      })
      .onConflictDoNothing({ target: authIdentities.username })
      .returning();
    if (!identity) throw conflict('An identity with this username already exists');
    return identity;
  }

  async findByUsername(username: string): Promise<Identity | undefined> {
    const parsed = usernameSchema.safeParse(username);
    if (!parsed.success) return undefined;
    const [identity] = await this.db
      .select()
      .from(authIdentities)
      .where(eq(authIdentities.username, parsed.data))
      .limit(1);
    return identity;
  }

  async findById(id: string): Promise<Identity | undefined> {
    if (!z.uuid().safeParse(id).success) return undefined;
    const [identity] = await this.db.select().from(authIdentities).where(eq(authIdentities.id, id)).limit(1);
    return identity;
  }

  /** A new single-use code for the identity; shown once, stored only as a hash. */
  async issueEnrollmentCode(identityId: string): Promise<IssuedEnrollment> {
    const code = newEnrollmentCode();
    const expiresAt = new Date(Date.now() + this.settings.enrollmentTtl * 1000);
    await this.db
      .insert(authEnrollmentCodes)
      .values({ identityId, codeHash: sha256Hex(normalizeCode(code)), expiresAt });
    const link = `${this.settings.publicUrl}/authenticator/enroll#code=${encodeURIComponent(code)}&issuer=${encodeURIComponent(this.settings.issuer)}`;
    return { code, expiresAt, link };
  }

  /**
   * Binds an authenticator key to the identity of an enrollment code. The request is signed by the new key
   * (proof of possession); the code is spent atomically, so it binds one key once.
   */
  async enroll(input: {
    code: string;
    publicJwk: PublicJwk;
    signature: string;
    label?: string | undefined;
  }): Promise<EnrollResult> {
    const keyId = await jwkThumbprint(input.publicJwk);
    const payload: EnrollPayload = {
      typ: 'careplane-enroll',
      v: 1,
      aud: this.settings.issuer,
      code: input.code,
      keyId,
    };
    if (!(await verifyCanonical(input.publicJwk, payload, input.signature))) {
      throw badRequest('The enrollment signature does not verify');
    }
    const refused = () => badRequest('Invalid, used or expired enrollment code');
    return this.db.transaction(async (tx) => {
      const now = new Date();
      const [spent] = await tx
        .update(authEnrollmentCodes)
        .set({ usedAt: now, keyId })
        .where(
          and(
            eq(authEnrollmentCodes.codeHash, sha256Hex(normalizeCode(input.code))),
            isNull(authEnrollmentCodes.usedAt),
            gt(authEnrollmentCodes.expiresAt, now),
          ),
        )
        .returning({ identityId: authEnrollmentCodes.identityId });
      if (!spent) throw refused();
      const [identity] = await tx
        .select()
        .from(authIdentities)
        .where(and(eq(authIdentities.id, spent.identityId), isNull(authIdentities.disabledAt)))
        .limit(1);
      if (!identity) throw refused();
      const [key] = await tx
        .insert(authAuthenticatorKeys)
        .values({
          id: keyId,
          identityId: identity.id,
          publicJwk: input.publicJwk,
          label: input.label ?? null,
        })
        .onConflictDoNothing()
        .returning({ id: authAuthenticatorKeys.id });
      if (!key) throw new AppError(409, 'This key is already enrolled');
      return {
        keyId,
        username: identity.username,
        firstName: identity.firstName,
        lastName: identity.lastName,
        issuer: this.settings.issuer,
      };
    });
  }

  /** An enrolled, unrevoked key of an enabled identity. */
  async activeKey(keyId: string): Promise<{ key: AuthenticatorKeyRow; identity: Identity } | undefined> {
    if (typeof keyId !== 'string' || keyId.length > 64) return undefined;
    const [row] = await this.db
      .select({ key: authAuthenticatorKeys, identity: authIdentities })
      .from(authAuthenticatorKeys)
      .innerJoin(authIdentities, eq(authIdentities.id, authAuthenticatorKeys.identityId))
      .where(
        and(
          eq(authAuthenticatorKeys.id, keyId),
          isNull(authAuthenticatorKeys.revokedAt),
          isNull(authIdentities.disabledAt),
        ),
      )
      .limit(1);
    return row;
  }

  async touchKey(keyId: string) {
    await this.db
      .update(authAuthenticatorKeys)
      .set({ lastUsedAt: new Date() })
      .where(eq(authAuthenticatorKeys.id, keyId));
  }
}

/** The identity claims of tokens (decisions §3). */
export function identityClaims(identity: Identity) {
  return {
    preferred_username: identity.username,
    given_name: identity.firstName,
    family_name: identity.lastName,
    name: `${identity.firstName} ${identity.lastName}`,
    ...(identity.email ? { email: identity.email } : {}),
    ...(identity.phoneNumber ? { phone_number: identity.phoneNumber } : {}),
    ...(identity.title ? { title: identity.title } : {}),
    roles: identity.roles,
    acr: identity.assuranceLevel,
  };
}
