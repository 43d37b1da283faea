// Users and patient profiles: the generic resources with their rules, admin provisioning (a user created in
// the admin area gets its sign-in identity and a one-time enrollment code, in the same transaction) and the
// sign-in that creates or updates the caller's own record from the identity token.
import type { JWTPayload } from 'jose';
import { isAdmin } from '@careplane/shared/auth/roles';
import { assuranceLevels, type AssuranceLevel } from '@careplane/shared/common/enums';
import type { AccountPreferences, Enrollment, Phone } from '@careplane/shared/users/account.contract';
import {
  MAX_PERSON_NAME,
  splitUsername,
  type User,
  type UserCreate,
} from '@careplane/shared/users/users.contract';
import { grantRevoked } from '@/auth-server/grants.js';
import type {
  AuthenticatorKeyRow,
  Identity,
  IdentityService,
  IssuedEnrollment,
} from '@/auth-server/identities.js';
import type { Executor } from '@/db/client.js';
import type { ActionContext } from '@/lib/audit.js';
import { badRequest, conflict, notFound, serviceTexts } from '@/lib/errors.js';
import { createResourceRepository } from '@/lib/resources/repository.js';
import { createResourceService } from '@/lib/resources/service.js';
import type { Store } from '@/lib/store.js';
import { userFieldsFromIdToken } from './account.service.js';
import {
  activeAdminsAfterLock,
  blockedIds,
  findCallerRecord,
  insertUser,
  lockUserForSignIn,
  mergedAdditionalInfo,
  searchableName,
  updateUser,
} from './users.repository.js';
import { patientProfilesResource, usersResource } from './users.resource.js';

type IdentityRole = 'admin' | 'master' | 'public';
const identityRoles = new Set<string>(['admin', 'master', 'public']);
const knownAssuranceLevels: ReadonlySet<string> = new Set(assuranceLevels);

const usersRepository = createResourceRepository(usersResource);

/** Ids among `ids` that name no user: for other modules' checks of the users they link. */
export const missingUserIds = (executor: Executor, ids: readonly string[]) =>
  usersRepository.missingIds(executor, ids);

/** A person's name either way it is written (account, local script), for other modules' searches. */
export { searchableName };

/** Ids among `ids` whose user is blocked. */
export const blockedUserIds = blockedIds;

export const enrollmentAnswer = (issued: IssuedEnrollment): Enrollment => ({
  code: issued.code,
  link: issued.link,
  expiresAt: issued.expiresAt.toISOString(),
});

export const phoneAnswer = (key: AuthenticatorKeyRow): Phone => ({
  id: key.id,
  label: key.label,
  enrolledAt: key.createdAt.toISOString(),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  revokedAt: key.revokedAt?.toISOString() ?? null,
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
  // A username's part before the @ may be longer than a name is kept (a ZodError, a 500, on create).
  const usernameWithoutDomain = splitUsername(user.username).usernameWithoutDomain.slice(0, MAX_PERSON_NAME);
  const roles = (user.roles ?? []).filter((role): role is IdentityRole => identityRoles.has(role));
  return {
    username: user.username,
    firstName: user.firstName?.trim() || usernameWithoutDomain,
    lastName: user.lastName?.trim() || usernameWithoutDomain,
    ...(user.email ? { email: user.email } : {}),
    ...(user.phoneNumber ? { phoneNumber: user.phoneNumber.slice(0, 40) } : {}),
    ...(user.title ? { title: user.title } : {}),
    ...(user.identityAssuranceLevel && knownAssuranceLevels.has(user.identityAssuranceLevel)
      ? { assuranceLevel: user.identityAssuranceLevel as AssuranceLevel }
      : {}),
    roles: roles.length ? roles : (['public'] as IdentityRole[]),
  };
}

/** The fields a token states: a claim it does not carry (null) is left out rather than written as empty. */
function statedIn<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null)) as Partial<T>;
}

/** A stored user who may use the admin area and is not blocked. */
const wasActiveAdmin = (row: Record<string, unknown>) =>
  row.isBlocked !== true &&
  isAdmin({ roles: row.roles as string[] | null, localRoles: row.localRoles as string[] | null });

/** Whether a change may take away someone's admin area: a block, or new roles. */
const touchesAdminRights = (values: Record<string, unknown>) =>
  values.isBlocked === true || values.roles !== undefined || values.localRoles !== undefined;

export function createUsersService(store: Store, identities: IdentityService) {
  const users = createResourceService(store, usersResource, {
    // The sign-in identity follows its user in the same transaction: roles, block and deletion.
    afterWrite: async (scope, { operation, before, values }) => {
      // The platform keeps an active admin: the last one is not blocked, demoted or deleted (decision 111). An admin
      // may block or demote themselves while another remains.
      if (before && wasActiveAdmin(before) && (operation === 'delete' || touchesAdminRights(values))) {
        if ((await activeAdminsAfterLock(scope.tx)) === 0) throw conflict(serviceTexts.lastActiveAdmin);
      }
      const identityId = typeof before?.masterId === 'string' ? before.masterId : null;
      if (!identityId || operation === 'create') return;
      const change =
        operation === 'delete'
          ? { deleted: true }
          : {
              ...(Array.isArray(values.roles) ? { roles: values.roles as string[] } : {}),
              ...(typeof values.isBlocked === 'boolean' ? { blocked: values.isBlocked } : {}),
            };
      if (Object.keys(change).length === 0) return;
      for (const grantId of await identities.followUser(scope.tx, identityId, change)) {
        scope.tell(grantRevoked(grantId));
      }
    },
    derive: (body, mode) => {
      if (mode === 'create') return 'username' in body ? splitUsername(body.username) : {};
      return body.additionalInfo ? { additionalInfo: mergedAdditionalInfo(body.additionalInfo) } : {};
    },
    check: async (_executor, plan, mode, existing) => {
      const selfId = existing?.id;
      if (mode === 'update' && typeof selfId === 'string' && plan.links.assignedNurses?.includes(selfId)) {
        throw badRequest(serviceTexts.ownNurse, [
          { path: 'assignedNurses', message: 'Must not contain the user itself' },
        ]);
      }
    },
  });

  const patientProfiles = createResourceService(store, patientProfilesResource, {
    check: async (_executor, plan, mode) => {
      // Spec §5: a patient profile is created with status and createdByUser, both non-empty.
      if (mode === 'create' && !plan.values.createdByUserId) {
        throw badRequest(serviceTexts.createdByUserRequired, [
          { path: 'createdByUser', message: 'Required: sign in once or name the creating user' },
        ]);
      }
    },
  });

  /**
   * Creates the user and, when no identity exists for its username, its sign-in identity and a one-time
   * enrollment code: all in one transaction, so a refused user leaves no identity behind. The code is
   * answered once and never logged.
   */
  async function createUser(body: UserCreate, context: ActionContext): Promise<User> {
    const { id, issued } = await store.write(context, async (scope) => {
      let identity: Identity | undefined = await identities.findByUsername(body.username, scope.tx);
      const provision = !identity && body.masterId == null;
      if (provision) identity = await identities.create(identityInputFor(body), scope.tx);
      const values: UserCreate =
        identity && body.masterId == null ? { ...body, masterId: identity.id } : body;
      const userId = await users.createWithin(scope, values);
      return {
        id: userId,
        issued: provision && identity ? await identities.issueEnrollmentCode(identity.id, scope.tx) : null,
      };
    });
    const created = await users.read(id, { relations: [] });
    return issued ? { ...created, enrollment: enrollmentAnswer(issued) } : created;
  }

  /** A fresh code for the user's identity (provisioned now if the user has none). */
  async function issueEnrollment(userId: string, context: ActionContext): Promise<Enrollment> {
    const user = await users.read(userId, { relations: [] });
    const issued = await store.write(context, async (scope) => {
      let identity = user.masterId ? await identities.findById(user.masterId, scope.tx) : undefined;
      if (user.masterId && !identity) throw notFound('Sign-in identity');
      const provisioned = !identity;
      if (!identity) {
        if (await identities.findByUsername(user.username, scope.tx)) {
          throw conflict(serviceTexts.identityWithoutUser);
        }
        identity = await identities.create(identityInputFor(user), scope.tx);
        await updateUser(scope.tx, userId, { masterId: identity.id });
      }
      await scope.audit({
        action: 'enrollment',
        resource: usersResource.name,
        recordId: userId,
        changes: { identityProvisioned: provisioned },
      });
      return identities.issueEnrollmentCode(identity.id, scope.tx);
    });
    return enrollmentAnswer(issued);
  }

  /** The phones enrolled for the user's sign-in; none when the user has no sign-in identity. */
  async function phones(userId: string): Promise<Phone[]> {
    const user = await users.read(userId, { relations: [] });
    return user.masterId ? (await identities.keysOf(user.masterId)).map(phoneAnswer) : [];
  }

  /**
   * Revokes one of the user's phones (a lost or replaced one): it approves and signs nothing more, the user's
   * sign-ins end at once, and the verifier stops vouching for its signatures Careplane did not complete
   * (decision 099). One audit row 'revoke-phone'; revoking a revoked phone answers it unchanged.
   */
  async function revokePhone(userId: string, phoneId: string, context: ActionContext): Promise<Phone> {
    const user = await users.read(userId, { relations: [] });
    const revoked = await store.write(context, async (scope) => {
      const done = user.masterId ? await identities.revokeKey(scope.tx, user.masterId, phoneId) : undefined;
      if (!done) throw notFound('Phone');
      if (!done.revokedNow) return done.key;
      await scope.audit({
        action: 'revoke-phone',
        resource: usersResource.name,
        recordId: userId,
        changes: { phone: done.key.id, label: done.key.label, signInsEnded: done.ended.length },
      });
      for (const grantId of done.ended) scope.tell(grantRevoked(grantId));
      return done.key;
    });
    return phoneAnswer(revoked);
  }

  /**
   * Creates or updates the user of the identity token: found by masterId, else by username when that user is
   * not yet bound to an identity (a record an admin made before the identity existed). One audit row 'sign-in',
   * acted by the user it created or updated.
   */
  async function signIn(claims: JWTPayload, context: ActionContext): Promise<User> {
    const fields = userFieldsFromIdToken(claims);
    const id = await store.write(context, async (scope) => {
      const existing = await lockUserForSignIn(scope.tx, fields.masterId, fields.username);
      if (existing?.masterId && existing.masterId !== fields.masterId) {
        throw conflict(serviceTexts.usernameOfAnotherIdentity);
      }
      let userId: string;
      if (existing) {
        userId = existing.id;
        // Once the record exists it decides the roles (an admin may have changed them): decision 022. A
        // detail the token does not state leaves the record's: an identity without a phone number erased the
        // one an admin had recorded, and a courier at the door could no longer call (decision 082).
        await updateUser(scope.tx, userId, { ...statedIn(fields), roles: undefined });
      } else {
        userId = await insertUser(scope.tx, fields);
      }
      const actor = context.caller ? { ...context.caller, userId } : null;
      await scope.audit(
        {
          action: 'sign-in',
          resource: usersResource.name,
          recordId: userId,
          changes: {
            username: fields.username,
            // Copied from the token at the first sign-in only; later the record's roles stand.
            ...(existing ? {} : { roles: fields.roles }),
            identityAssuranceLevel: fields.identityAssuranceLevel,
            firstSignIn: !existing,
          },
        },
        { caller: actor, ip: context.ip },
      );
      return userId;
    });
    return users.read(id, { relations: [] });
  }

  /** The signed-in user's own choices (the console's language); one audit row 'update' by the user. */
  async function setPreferences(userId: string, preferences: AccountPreferences, context: ActionContext) {
    await store.write(context, async (scope) => {
      await updateUser(scope.tx, userId, { language: preferences.language });
      await scope.audit({
        action: 'update',
        resource: usersResource.name,
        recordId: userId,
        changes: { language: preferences.language },
      });
    });
    return users.read(userId, { relations: [] });
  }

  /** The caller's user record, for the auth plugin; undefined before the first sign-in. */
  const findCaller = (subject: string) => findCallerRecord(store.db, subject);

  return {
    users,
    patientProfiles,
    createUser,
    issueEnrollment,
    phones,
    revokePhone,
    signIn,
    setPreferences,
    findCaller,
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
