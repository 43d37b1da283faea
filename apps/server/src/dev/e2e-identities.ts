// Prepares identities for the browser tests of the authenticator app: on the database of DATA_DIR (or
// DATABASE_URL), before any server holds it, creates each identity named on the command line and issues its
// one-time enrollment codes, one for each try a test may have (E2E_TRIES, default 1: a retried test enrolls a
// fresh phone with a code its first try did not spend; these codes are issued side by side, where a fresh code
// otherwise ends the earlier ones, decision 110). Prints as JSON
// `[{ username, roles, enrollments: [{ code, link }] }]`. The codes go through the real enrollment of the app;
// nothing here bypasses the auth server. Roles follow a colon (default: public).
//
//   E2E_TRIES=2 tsx src/dev/e2e-identities.ts <username>[:<role>,<role>] [...]
import { loadConfig } from '@/config.js';
import { openDatabase } from '@/db/client.js';
import { lockEmbeddedDatabase } from '@/db/embedded-lock.js';
import { IdentityService } from '@/auth-server/identities.js';
import { authServerSettings } from '@/auth-server/index.js';

const roleNames = ['admin', 'master', 'public'] as const;
type Role = (typeof roleNames)[number];
const isRole = (name: string): name is Role => (roleNames as readonly string[]).includes(name);

const wanted = process.argv.slice(2).map((argument) => {
  const [username = '', roleList = 'public'] = argument.split(':');
  const roles = roleList.split(',').filter(Boolean);
  if (!username || roles.length === 0 || !roles.every(isRole)) {
    console.error(`e2e-identities: cannot read "${argument}" (roles: ${roleNames.join(', ')})`);
    process.exit(2);
  }
  return { username, roles: roles.filter(isRole) };
});
if (wanted.length === 0) {
  console.error('usage: e2e-identities <username>[:<role>,<role>] [...]');
  process.exit(2);
}
const tries = Number(process.env.E2E_TRIES ?? 1);
if (!Number.isInteger(tries) || tries < 1 || tries > 10) {
  console.error(
    `e2e-identities: E2E_TRIES must be a whole number from 1 to 10, not "${process.env.E2E_TRIES}"`,
  );
  process.exit(2);
}

const config = loadConfig();
const lock = config.databaseUrl ? null : lockEmbeddedDatabase(config.dataDir, 'preparing test identities');
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const identities = new IdentityService(database.db, authServerSettings(config));
  const issued = [];
  for (const [index, { username, roles }] of wanted.entries()) {
    const identity = await identities.create({
      username,
      firstName: 'Test',
      lastName: `Person ${index + 1}`,
      roles,
    });
    const enrollments = [];
    for (let round = 0; round < tries; round += 1) {
      // Each try's code must still work when an earlier try's was never used: issued side by side.
      const { code, link } = await identities.issueEnrollmentCode(identity.id, undefined, {
        alongsideEarlier: true,
      });
      enrollments.push({ code, link });
    }
    issued.push({
      username: identity.username,
      firstName: identity.firstName,
      lastName: identity.lastName,
      roles: identity.roles,
      enrollments,
    });
  }
  process.stdout.write(`${JSON.stringify(issued)}\n`);
} finally {
  await database.close();
  lock?.release();
}
