// Prepares identities for the browser tests of the authenticator app: on the database of DATA_DIR (or
// DATABASE_URL), before any server holds it, creates each identity named on the command line and issues its
// one-time enrollment code. Prints `[{ username, code, link }]` as JSON. The codes go through the real
// enrollment of the app; nothing here bypasses the auth server.
//
//   tsx src/auth-server/e2e-identities.ts <username> [<username> ...]
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { lockEmbeddedDatabase } from '../db/embedded-lock.js';
import { IdentityService } from './identities.js';
import { authServerSettings } from './index.js';

const usernames = process.argv.slice(2);
if (usernames.length === 0) {
  console.error('usage: e2e-identities <username> [<username> ...]');
  process.exit(2);
}

const config = loadConfig();
const lock = config.databaseUrl ? null : lockEmbeddedDatabase(config.dataDir, 'preparing test identities');
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const identities = new IdentityService(database.db, authServerSettings(config));
  const issued = [];
  for (const [index, username] of usernames.entries()) {
    const identity = await identities.create({
      username,
      firstName: 'Test',
      lastName: `Person ${index + 1}`,
      roles: ['public'],
    });
    const { code, link } = await identities.issueEnrollmentCode(identity.id);
    issued.push({
      username: identity.username,
      firstName: identity.firstName,
      lastName: identity.lastName,
      code,
      link,
    });
  }
  process.stdout.write(`${JSON.stringify(issued)}\n`);
} finally {
  await database.close();
  lock?.release();
}
