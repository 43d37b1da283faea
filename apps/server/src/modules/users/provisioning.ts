// Admin provisioning: a user created in the admin area gets its sign-in identity in the auth server (when
// none exists for the username) and a one-time enrollment code for the authenticator, shown once.
import type { Enrollment } from '@careplane/shared/users/account.contract';
import type { UserCreate } from '@careplane/shared/users/users.contract';
import { splitUsername } from '@careplane/shared/users/users.contract';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { authIdentities, users } from '../../db/schema/index.js';
import type { Identity, IdentityService, IssuedEnrollment } from '../../auth-server/identities.js';
import { conflict, notFound } from '../../lib/errors.js';
import type { ResourceService } from '../../lib/resources/resource.js';
import { audit, type ActionContext } from '../audit/audit.service.js';

type IdentityRole = 'admin' | 'master' | 'public';
const assuranceLevels = new Set(['low', 'substantial', 'high']);

export const enrollmentAnswer = (issued: IssuedEnrollment): Enrollment => ({
  code: issued.code,
  link: issued.link,
  expiresAt: issued.expiresAt.toISOString(),
});

/** The identity of a user's fields; a missing name falls back to the username's local part. */
export function identityInputFor(user: {
  username: string;
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  email?: string | null | undefined;
  phoneNumber?: string | null | undefined;
  title?: string | null | undefined;
  identityAssuranceLevel?: string | null | undefined;
  roles?: readonly string[] | null | undefined;
}) {
  const { usernameWithoutDomain } = splitUsername(user.username);
  const roles = (user.roles ?? []).filter((role): role is IdentityRole =>
    ['admin', 'master', 'public'].includes(role),
  );
  return {
    username: user.username,
    firstName: user.firstName?.trim() || usernameWithoutDomain,
    lastName: user.lastName?.trim() || usernameWithoutDomain,
    ...(user.email ? { email: user.email } : {}),
    ...(user.phoneNumber ? { phoneNumber: user.phoneNumber.slice(0, 40) } : {}),
    ...(user.title ? { title: user.title } : {}),
    ...(user.identityAssuranceLevel && assuranceLevels.has(user.identityAssuranceLevel)
      ? { assuranceLevel: user.identityAssuranceLevel as 'low' | 'substantial' | 'high' }
      : {}),
    roles: roles.length ? roles : (['public'] as IdentityRole[]),
  };
}

export function createProvisioning(db: Database, identities: IdentityService, service: ResourceService) {
  /**
   * Creates the user; provisions its identity first when none exists for the username (undone if the user
   * cannot be created). The enrollment code is issued only for a new identity.
   */
  async function createUser(body: UserCreate, context: ActionContext) {
    let identity: Identity | undefined = await identities.findByUsername(body.username);
    let provisioned = false;
    if (!identity && body.masterId == null) {
      identity = await identities.create(identityInputFor(body));
      provisioned = true;
    }
    const values: Record<string, unknown> = { ...body };
    if (identity && body.masterId == null) values.masterId = identity.id;
    let created: Record<string, unknown>;
    try {
      created = await service.create(values, context);
    } catch (error) {
      if (provisioned && identity) await db.delete(authIdentities).where(eq(authIdentities.id, identity.id));
      throw error;
    }
    if (!provisioned || !identity) return created;
    // The create's audit row records the masterId of the new identity; the code itself is never logged.
    const enrollment = enrollmentAnswer(await identities.issueEnrollmentCode(identity.id));
    return { ...created, enrollment };
  }

  /** A fresh code for the user's identity (provisioned now if the user has none). */
  async function issueEnrollment(userId: string, context: ActionContext): Promise<Enrollment> {
    const user = (await service.read(userId, { relations: [] })) as {
      id: string;
      username: string;
      masterId: string | null;
    } & Record<string, unknown>;
    let identity = user.masterId ? await identities.findById(user.masterId) : undefined;
    if (user.masterId && !identity) throw notFound('Sign-in identity');
    let provisioned = false;
    if (!identity) {
      const byName = await identities.findByUsername(user.username);
      if (byName) throw conflict('An identity with this username exists but belongs to no user record');
      identity = await identities.create(identityInputFor(user));
      provisioned = true;
      await db.update(users).set({ masterId: identity.id }).where(eq(users.id, userId));
    }
    const enrollment = enrollmentAnswer(await identities.issueEnrollmentCode(identity.id));
    await audit(db, context, 'enrollment', 'users', userId, { identityProvisioned: provisioned });
    return enrollment;
  }

  return { createUser, issueEnrollment };
}
