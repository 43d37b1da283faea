// Sign-in for the demo: identities for the named demo users (their subjects are the users' masterIds), a key
// of each enrolled into an authenticator store at <DATA_DIR>/demo-authenticator.json, and the instructions.
// A key is enrolled only for an identity that has never had one on this database (the first start, or a demo
// user added later): a revoked key stays revoked (decision 099), and a store that is gone is not made again
// behind an admin's back. One-time enrollment links for phones are issued with that first key only, so a
// restart prints no working credential (decision 036: enrollment codes never reach the log).
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inArray } from 'drizzle-orm';
import {
  AuthenticatorClient,
  exportPrivateJwk,
  generateAuthenticatorKey,
  type FetchLike,
} from '@careplane/shared/authenticator/protocol';
import type { AuthServer } from '@/auth-server/index.js';
import {
  putIdentity,
  readStore,
  storableJwk,
  writeStore,
  type AuthenticatorStore,
} from '@/lib/authenticator-store.js';
import type { Database } from '@/db/client.js';
import { authIdentities, users } from '@/db/schema/index.js';
import { DEMO_SEED, demoSignInUsers } from '@/db/seed/demo-data.js';

export const DEMO_STORE_FILE = 'demo-authenticator.json';

/**
 * What the demo store holds for an identity after a start: `enrolled`, its first key, enrolled by this start
 * (the identity had none on this database); `kept`, an unrevoked key enrolled before; `revoked`, a key an
 * admin revoked, which stays so; `missing`, no key this database knows although the identity has keys here
 * (the store was deleted, or belongs to another data folder or issuer): none is enrolled in their place.
 */
export type DemoStoreKey = 'enrolled' | 'kept' | 'revoked' | 'missing';

export interface DemoSignInIdentity {
  username: string;
  name: string;
  roles: string[];
  localRoles: string[];
  storeKey: DemoStoreKey;
  /** Whether the identity has an unrevoked key on this database, the store's or a phone's. */
  hasActiveKey: boolean;
  /** A one-time link for enrolling a phone, issued only along with the identity's first key; else null. */
  enrollmentLink: string | null;
}

export interface DemoSignIn {
  storePath: string;
  /** Whether the store file was there when the start began. */
  storeFound: boolean;
  identities: DemoSignInIdentity[];
  createdIdentities: number;
  enrolledKeys: number;
}

/** Which identities the store approves for: their key in it is enrolled and not revoked. */
export const storeSignsIn = (identity: Pick<DemoSignInIdentity, 'storeKey'>) =>
  identity.storeKey === 'enrolled' || identity.storeKey === 'kept';

/** The protocol's fetch answered by the app itself (the server is not listening yet). */
export function injectFetch(app: FastifyInstance): FetchLike {
  return async (url, init) => {
    const target = new URL(url);
    const response = await app.inject({
      method: init.method as 'POST',
      url: `${target.pathname}${target.search}`,
      headers: init.headers,
      ...(init.body === undefined ? {} : { payload: init.body }),
    });
    return {
      status: response.statusCode,
      ok: response.statusCode >= 200 && response.statusCode < 300,
      json: async () => response.json<unknown>(),
    };
  };
}

/**
 * Does nothing (null) unless the database holds the demo users. Creates what is missing and returns what the
 * instructions print.
 */
export async function ensureDemoSignIn(options: {
  db: Database;
  authServer: AuthServer;
  fetch: FetchLike;
  dataDir: string;
  seed?: string;
}): Promise<DemoSignIn | null> {
  const { db, authServer } = options;
  const demoUsers = demoSignInUsers(options.seed ?? DEMO_SEED);
  const present = await db
    .select({ masterId: users.masterId })
    .from(users)
    .where(
      inArray(
        users.masterId,
        demoUsers.map((user) => user.masterId),
      ),
    );
  const presentIds = new Set(present.map((row) => row.masterId));
  const wanted = demoUsers.filter((user) => presentIds.has(user.masterId));
  if (wanted.length === 0) return null;

  // The identity's id is the subject of its tokens: the demo user's masterId.
  const created = await db
    .insert(authIdentities)
    .values(
      wanted.map((user) => ({
        id: user.masterId,
        username: user.username,
        firstName: user.firstName,
        lastName: user.lastName,
        email: user.email,
        assuranceLevel: 'substantial',
        roles: user.roles,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: authIdentities.id });

  const storePath = path.join(options.dataDir, DEMO_STORE_FILE);
  const storeFound = existsSync(storePath);
  const issuer = authServer.settings.issuer;
  let store: AuthenticatorStore = readStore(storePath);
  const client = new AuthenticatorClient({ issuer, fetch: options.fetch });
  let enrolledKeys = 0;
  const identities: DemoSignIn['identities'] = [];
  for (const user of wanted) {
    const identity = await authServer.identities.findById(user.masterId);
    if (!identity || identity.username !== user.username) continue;
    // Every key the identity ever had here, revoked ones too: a revoked row is an admin's decision, and
    // enrolling another key beside it would undo it at every start.
    const keys = await authServer.identities.keysOf(identity.id);
    const stored = store.identities.find(
      (entry) => entry.username === user.username && entry.issuer === issuer,
    );
    const storedKey = stored && keys.find((key) => key.id === stored.keyId);
    let storeKey: DemoStoreKey;
    let enrollmentLink: string | null = null;
    if (keys.length === 0) {
      const { code } = await authServer.identities.issueEnrollmentCode(identity.id);
      const keyPair = await generateAuthenticatorKey(true);
      const enrolled = await client.enroll(code, keyPair, 'demo store');
      // Replaces an entry left from an earlier database, whose key this one never knew.
      store = putIdentity(store, {
        issuer,
        username: enrolled.username,
        keyId: enrolled.keyId,
        privateJwk: storableJwk(await exportPrivateJwk(keyPair.privateKey)),
        firstName: enrolled.firstName,
        lastName: enrolled.lastName,
        enrolledAt: new Date().toISOString(),
      });
      enrolledKeys++;
      storeKey = 'enrolled';
      // A link for enrolling a phone as well, issued once with the first key: a restart issues none.
      enrollmentLink = (await authServer.identities.issueEnrollmentCode(identity.id)).link;
    } else if (!storedKey) {
      storeKey = 'missing';
    } else {
      storeKey = storedKey.revokedAt ? 'revoked' : 'kept';
    }
    identities.push({
      username: user.username,
      name: `${user.firstName} ${user.lastName}`,
      roles: user.roles,
      localRoles: user.localRoles,
      storeKey,
      hasActiveKey: storeKey === 'enrolled' || keys.some((key) => !key.revokedAt),
      enrollmentLink,
    });
  }
  if (enrolledKeys > 0) writeStore(storePath, store);
  return { storePath, storeFound, identities, createdIdentities: created.length, enrolledKeys };
}

const ENROLL_ON_THE_PERSONS_PAGE =
  'an administrator enrolls a phone on the person’s page in the console (Users, "Enroll a new phone")';

/**
 * What an operator should hear about the demo's sign-in, one log line each and no secret in any: the demo
 * identities no key can sign in any more, and the identities whose keys the store should hold but does not.
 */
export function demoSignInWarnings(demo: DemoSignIn): { identities: string[]; message: string }[] {
  const warnings: { identities: string[]; message: string }[] = [];
  const withoutPhone = demo.identities
    .filter((identity) => !identity.hasActiveKey)
    .map(({ username }) => username);
  if (withoutPhone.length > 0) {
    warnings.push({
      identities: withoutPhone,
      message: `demo identities without a usable phone (their keys were revoked and stay so): ${withoutPhone.join(', ')}; ${ENROLL_ON_THE_PERSONS_PAGE}`,
    });
  }
  const missing = demo.identities
    .filter((identity) => identity.storeKey === 'missing')
    .map(({ username }) => username);
  if (missing.length > 0) {
    const store = demo.storeFound
      ? `the demo authenticator store ${demo.storePath} holds no key this database knows of ${missing.join(', ')}`
      : `the demo authenticator store ${demo.storePath} is missing, so it signs in none of ${missing.join(', ')}`;
    warnings.push({
      identities: missing,
      message: `${store}: their keys on the database are kept and none is enrolled again; ${ENROLL_ON_THE_PERSONS_PAGE}`,
    });
  }
  return warnings;
}

/** The sign-in instructions, as the server prints them after it listens. */
export function demoSignInInstructions(demo: DemoSignIn, consoleUrl: string, cwd = process.cwd()): string {
  const relative = path.relative(cwd, demo.storePath);
  const store =
    relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : demo.storePath;
  const width = Math.max(...demo.identities.map((identity) => identity.username.length));
  const signers = demo.identities.filter(storeSignsIn);
  const first = signers.find((identity) => identity.username.startsWith('admin@')) ?? signers[0];
  const notSigned = demo.identities.filter((identity) => !storeSignsIn(identity));
  const withLink = demo.identities.filter((identity) => identity.enrollmentLink !== null);
  return [
    '',
    '─'.repeat(100),
    `Careplane demo: open ${consoleUrl}/login and sign in with one of these identifiers:`,
    ...demo.identities.map(
      (identity) =>
        `  ${identity.username.padEnd(width)}  ${identity.name} (${[...identity.roles, ...identity.localRoles].join(', ')})`,
    ),
    '',
    ...(first
      ? [
          'Approve the sign-in from a terminal with the code the console shows (the demo keys are in the',
          'authenticator store beside the data); only the request showing that code is approved:',
          `  npx careplane authenticator approve --store ${store} --username ${first.username} --code "<the code the console shows>"`,
        ]
      : []),
    ...(!demo.storeFound && notSigned.some((identity) => identity.storeKey === 'missing')
      ? [
          `The demo authenticator store (${store}) is missing: the demo keys on the database are kept,`,
          'and none is enrolled again in their place.',
        ]
      : []),
    ...(notSigned.length > 0
      ? [
          ...(first ? [''] : []),
          'The store cannot approve for these; an administrator enrolls a phone on the person’s page (Users,',
          '"Enroll a new phone"):',
          ...notSigned.map(
            (identity) =>
              `  ${identity.username.padEnd(width)}  ${identity.storeKey === 'revoked' ? 'its key was revoked' : 'no key of it in the store'}`,
          ),
        ]
      : []),
    '',
    // Links only when this start issued them (the identity's first key): a restart prints no credential.
    ...(withLink.length > 0
      ? [
          'Or enroll the authenticator app on a phone (each link works once, and not after a new one is issued for its person):',
          ...withLink.map((identity) => `  ${identity.username.padEnd(width)}  ${identity.enrollmentLink}`),
        ]
      : [
          'Or use the authenticator app on a phone: an administrator issues its one-time enrollment link on the',
          'person’s page (Users, "Enroll a new phone"); only the first start prints links.',
        ]),
    '─'.repeat(100),
    '',
  ].join('\n');
}
