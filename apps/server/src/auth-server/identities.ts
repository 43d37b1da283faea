// Identities (the auth server's users), their authenticator keys and one-time enrollment codes.
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { assuranceLevels } from '@careplane/shared/common/enums';
import { MAX_PERSON_NAME } from '@careplane/shared/users/users.contract';
import {
  jwkThumbprint,
  verifyCanonical,
  type EnrollPayload,
  type EnrollResult,
  type PublicJwk,
} from '@careplane/shared/authenticator/protocol';
import type { Database, Executor } from '@/db/client.js';
import {
  authAuthenticatorKeys,
  authEnrollmentCodes,
  authIdentities,
  authRequests,
} from '@/db/schema/index.js';
import { AppError, badRequest, conflict, serviceTexts } from '@/lib/errors.js';
import { forgetPolls } from './ciba-poll.js';
import { deleteIdentityGrants } from './grants.js';

export type Identity = typeof authIdentities.$inferSelect;
export type AuthenticatorKeyRow = typeof authAuthenticatorKeys.$inferSelect;

export const usernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(/^[a-z0-9._+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*$/, 'name@domain');

const identityRoleSet = new Set<string>(['admin', 'master', 'public']);

export const identityInputSchema = z.object({
  username: usernameSchema,
  firstName: z.string().trim().min(1).max(MAX_PERSON_NAME),
  lastName: z.string().trim().min(1).max(MAX_PERSON_NAME),
  email: z.string().trim().email().max(254).optional(),
  phoneNumber: z.string().trim().max(40).optional(),
  title: z.string().trim().max(100).optional(),
  assuranceLevel: z.enum(assuranceLevels).default('substantial'),
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

  /** A new identity; `executor` lets a caller create it inside its own transaction. */
  async create(input: IdentityInput, executor: Executor = this.db): Promise<Identity> {
    const parsed = identityInputSchema.parse(input);
    const [identity] = await executor
      .insert(authIdentities)
      .values({
        ...parsed,
        email: parsed.email ?? null,
        phoneNumber: parsed.phoneNumber ?? null,
        title: parsed.title ?? null,
      })
      .onConflictDoNothing({ target: authIdentities.username })
      .returning();
    if (!identity) throw conflict(serviceTexts.identityExists);
    return identity;
  }

  async findByUsername(username: string, executor: Executor = this.db): Promise<Identity | undefined> {
    const parsed = usernameSchema.safeParse(username);
    if (!parsed.success) return undefined;
    const [identity] = await executor
      .select()
      .from(authIdentities)
      .where(eq(authIdentities.username, parsed.data))
      .limit(1);
    return identity;
  }

  async findById(id: string, executor: Executor = this.db): Promise<Identity | undefined> {
    if (!z.uuid().safeParse(id).success) return undefined;
    const [identity] = await executor.select().from(authIdentities).where(eq(authIdentities.id, id)).limit(1);
    return identity;
  }

  /**
   * Keeps an identity in step with its application user (decision 022): the roles its next tokens carry, a
   * block (no sign-in, every sign-in ended, pending requests refused), an unblock, or the user's deletion (the
   * identity goes, so no sign-in can re-create the user). Runs in the caller's transaction; answers the grants
   * it ended, for the caller to announce.
   */
  async followUser(
    executor: Executor,
    identityId: string,
    change: { roles?: readonly string[]; blocked?: boolean; deleted?: boolean },
  ): Promise<string[]> {
    if (!z.uuid().safeParse(identityId).success) return [];
    const where = eq(authIdentities.id, identityId);
    if (change.deleted) {
      const ended = await this.endSignIns(executor, identityId);
      await executor.delete(authIdentities).where(where);
      return ended;
    }
    const set: Partial<typeof authIdentities.$inferInsert> = {};
    if (change.roles) set.roles = change.roles.filter((role) => identityRoleSet.has(role));
    if (change.blocked !== undefined) set.disabledAt = change.blocked ? new Date() : null;
    if (Object.keys(set).length) await executor.update(authIdentities).set(set).where(where);
    if (!change.blocked) return [];
    await this.denyWaiting(executor, identityId);
    return this.endSignIns(executor, identityId);
  }

  /** The identity's phones (authenticator keys): active ones first, each group newest first. */
  async keysOf(identityId: string, executor: Executor = this.db): Promise<AuthenticatorKeyRow[]> {
    if (!z.uuid().safeParse(identityId).success) return [];
    return executor
      .select()
      .from(authAuthenticatorKeys)
      .where(eq(authAuthenticatorKeys.identityId, identityId))
      .orderBy(
        sql`${authAuthenticatorKeys.revokedAt} is not null`,
        desc(authAuthenticatorKeys.createdAt),
        authAuthenticatorKeys.id,
      );
  }

  /**
   * Revokes one of the identity's phones: from now on it approves and signs nothing. The identity's sign-ins
   * end and its requests still waiting are denied, as a block does, since the grants do not say which phone
   * approved them (decision 099). Answers the key (undefined when the identity has no such key), whether this
   * call revoked it, and the grants it ended; revoking a revoked phone changes nothing.
   */
  async revokeKey(
    executor: Executor,
    identityId: string,
    keyId: string,
  ): Promise<{ key: AuthenticatorKeyRow; revokedNow: boolean; ended: string[] } | undefined> {
    if (!z.uuid().safeParse(identityId).success) return undefined;
    const ofIdentity = and(
      eq(authAuthenticatorKeys.id, keyId),
      eq(authAuthenticatorKeys.identityId, identityId),
    );
    const [revoked] = await executor
      .update(authAuthenticatorKeys)
      .set({ revokedAt: new Date() })
      .where(and(ofIdentity, isNull(authAuthenticatorKeys.revokedAt)))
      .returning();
    if (!revoked) {
      const [key] = await executor.select().from(authAuthenticatorKeys).where(ofIdentity);
      return key ? { key, revokedNow: false, ended: [] } : undefined;
    }
    await this.denyWaiting(executor, identityId);
    return { key: revoked, revokedNow: true, ended: await this.endSignIns(executor, identityId) };
  }

  private async denyWaiting(executor: Executor, identityId: string) {
    await executor
      .update(authRequests)
      .set({ status: 'denied', decidedAt: new Date() })
      .where(and(eq(authRequests.identityId, identityId), eq(authRequests.status, 'pending')));
  }

  /**
   * Ends the identity's sign-ins and its sign-ins in progress; the polls' memory of those forgets them (on
   * the embedded database a poll waits for this transaction, and then reads the database).
   */
  async endSignIns(executor: Executor, identityId: string): Promise<string[]> {
    const ended = await deleteIdentityGrants(executor, identityId);
    forgetPolls(this.db);
    return ended;
  }

  /**
   * A new single-use code for the identity; shown once, stored only as a hash. It ends every earlier code of
   * the identity not used yet, in the same transaction (decision 110): an admin issues a fresh code because an
   * earlier one may have gone astray, so only the newest enrolls. An ended code is refused as an unknown or
   * used one is. `alongsideEarlier` keeps them: only the browser tests' preparation, which issues one code per
   * try of a test before any is used, asks for that.
   */
  async issueEnrollmentCode(
    identityId: string,
    executor: Executor = this.db,
    options: { alongsideEarlier?: boolean } = {},
  ): Promise<IssuedEnrollment> {
    const code = newEnrollmentCode();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.settings.enrollmentTtl * 1000);
    await executor.transaction(async (tx) => {
      if (!options.alongsideEarlier) {
        // Two codes issued at once for one identity wait for each other here, so the later one ends the
        // earlier one whichever commits first.
        await tx
          .select({ id: authIdentities.id })
          .from(authIdentities)
          .where(eq(authIdentities.id, identityId))
          .for('update');
        // Ended as an expired code is: every check of a code asks for one not used and not expired.
        await tx
          .update(authEnrollmentCodes)
          .set({ expiresAt: now })
          .where(
            and(
              eq(authEnrollmentCodes.identityId, identityId),
              isNull(authEnrollmentCodes.usedAt),
              gt(authEnrollmentCodes.expiresAt, now),
            ),
          );
      }
      await tx
        .insert(authEnrollmentCodes)
        .values({ identityId, codeHash: sha256Hex(normalizeCode(code)), expiresAt });
    });
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
    const refused = () => badRequest(serviceTexts.enrollmentCodeRefused);
    // The code first: nothing about the key is looked at for a caller without a valid code.
    const codeHash = sha256Hex(normalizeCode(input.code));
    const [usable] = await this.db
      .select({ identityId: authEnrollmentCodes.identityId })
      .from(authEnrollmentCodes)
      .where(
        and(
          eq(authEnrollmentCodes.codeHash, codeHash),
          isNull(authEnrollmentCodes.usedAt),
          gt(authEnrollmentCodes.expiresAt, new Date()),
        ),
      )
      .limit(1);
    if (!usable) throw refused();
    const keyId = await jwkThumbprint(input.publicJwk);
    const payload: EnrollPayload = {
      typ: 'careplane-enroll',
      v: 1,
      aud: this.settings.issuer,
      code: input.code,
      keyId,
    };
    // A key that is not a point on P-256 does not even import: a bad request, like a bad signature.
    const verified = await verifyCanonical(input.publicJwk, payload, input.signature).catch(() => false);
    if (!verified) throw badRequest(serviceTexts.enrollmentSignatureRefused);
    return this.db.transaction(async (tx) => {
      const now = new Date();
      const [spent] = await tx
        .update(authEnrollmentCodes)
        .set({ usedAt: now, keyId })
        .where(
          and(
            eq(authEnrollmentCodes.codeHash, codeHash),
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
      if (!key) throw new AppError(409, serviceTexts.keyEnrolled);
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

  /**
   * The identity's key most likely in the user's hand: the active one used last (then the newest). A document
   * signature is asked of one key, because its certificate certifies that key.
   */
  async latestActiveKey(identityId: string): Promise<AuthenticatorKeyRow | undefined> {
    const [row] = await this.db
      .select({ key: authAuthenticatorKeys })
      .from(authAuthenticatorKeys)
      .innerJoin(authIdentities, eq(authIdentities.id, authAuthenticatorKeys.identityId))
      .where(
        and(
          eq(authAuthenticatorKeys.identityId, identityId),
          isNull(authAuthenticatorKeys.revokedAt),
          isNull(authIdentities.disabledAt),
        ),
      )
      .orderBy(
        sql`${authAuthenticatorKeys.lastUsedAt} desc nulls last`,
        desc(authAuthenticatorKeys.createdAt),
      )
      .limit(1);
    return row?.key;
  }

  async touchKey(keyId: string) {
    await this.db
      .update(authAuthenticatorKeys)
      .set({ lastUsedAt: new Date() })
      .where(eq(authAuthenticatorKeys.id, keyId));
  }
}

/** What an identity's claims are made of. */
export type ClaimsSource = Pick<
  Identity,
  'username' | 'firstName' | 'lastName' | 'email' | 'phoneNumber' | 'title' | 'roles' | 'assuranceLevel'
>;

/** The identity claims of tokens (decisions §3). */
export function identityClaims(identity: ClaimsSource) {
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

/**
 * What an access token says of its identity (the provider's extraTokenClaims, and the token route's own
 * refresh): the identity the API reads, and the sign-in the token belongs to (the API refuses the token once
 * that sign-in has ended).
 */
export function accessTokenClaims(identity: ClaimsSource, grantId: string | null | undefined) {
  const claims = identityClaims(identity);
  return {
    preferred_username: claims.preferred_username,
    given_name: claims.given_name,
    family_name: claims.family_name,
    ...(claims.email ? { email: claims.email } : {}),
    roles: claims.roles,
    acr: claims.acr,
    ...(grantId ? { grant_id: grantId } : {}),
  };
}
