// Sign-in for the demo: identities for the named demo users (their subjects are the users' masterIds), a key
// of each enrolled into an authenticator store at <DATA_DIR>/demo-authenticator.json, and the instructions.
// Idempotent: existing identities and still-enrolled keys are kept; a restart only prints the instructions
// again (with fresh enrollment links for phones).
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

export interface DemoSignIn {
  storePath: string;
  identities: {
    username: string;
    name: string;
    roles: string[];
    localRoles: string[];
    enrollmentLink: string;
  }[];
  createdIdentities: number;
  enrolledKeys: number;
}

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
  const issuer = authServer.settings.issuer;
  let store: AuthenticatorStore = readStore(storePath);
  const client = new AuthenticatorClient({ issuer, fetch: options.fetch });
  let enrolledKeys = 0;
  const identities: DemoSignIn['identities'] = [];
  for (const user of wanted) {
    const identity = await authServer.identities.findById(user.masterId);
    if (!identity || identity.username !== user.username) continue;
    const stored = store.identities.find(
      (entry) => entry.username === user.username && entry.issuer === issuer,
    );
    const active = stored ? await authServer.identities.activeKey(stored.keyId) : undefined;
    if (!stored || active?.identity.id !== identity.id) {
      const { code } = await authServer.identities.issueEnrollmentCode(identity.id);
      const keyPair = await generateAuthenticatorKey(true);
      const enrolled = await client.enroll(code, keyPair, 'demo store');
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
    }
    // A fresh link each start, for enrolling a phone as well.
    const { link } = await authServer.identities.issueEnrollmentCode(identity.id);
    identities.push({
      username: user.username,
      name: `${user.firstName} ${user.lastName}`,
      roles: user.roles,
      localRoles: user.localRoles,
      enrollmentLink: link,
    });
  }
  if (enrolledKeys > 0) writeStore(storePath, store);
  return { storePath, identities, createdIdentities: created.length, enrolledKeys };
}

/** The sign-in instructions, as the server prints them after it listens. */
export function demoSignInInstructions(demo: DemoSignIn, consoleUrl: string, cwd = process.cwd()): string {
  const relative = path.relative(cwd, demo.storePath);
  const store =
    relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : demo.storePath;
  const width = Math.max(...demo.identities.map((identity) => identity.username.length));
  const first =
    demo.identities.find((identity) => identity.username.startsWith('admin@')) ?? demo.identities[0]!;
  return [
    '',
    '─'.repeat(100),
    `Careplane demo: open ${consoleUrl}/login and sign in with one of these identifiers:`,
    ...demo.identities.map(
      (identity) =>
        `  ${identity.username.padEnd(width)}  ${identity.name} (${[...identity.roles, ...identity.localRoles].join(', ')})`,
    ),
    '',
    'Approve the sign-in from a terminal with the code the console shows (the demo keys are in the',
    'authenticator store beside the data); only the request showing that code is approved:',
    `  npx careplane authenticator approve --store ${store} --username ${first.username} --code "<the code the console shows>"`,
    '',
    'Or enroll the authenticator app on a phone (each link works once):',
    ...demo.identities.map((identity) => `  ${identity.username.padEnd(width)}  ${identity.enrollmentLink}`),
    '─'.repeat(100),
    '',
  ].join('\n');
}
