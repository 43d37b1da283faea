// Starts the real server for the browser tests the way a newcomer does (`npm run start -w @careplane/server`),
// on a free port and over a fresh embedded database, and prints the port once /api/health answers.
// It builds nothing: the builds of the console, the authenticator and the server must exist (scripts/test.mjs
// makes them).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const READY_WITHIN_MS = 120_000;

for (const built of ['web/dist/index.html', 'authenticator/dist/index.html', 'server/dist/main.js']) {
  if (!existsSync(path.join(repo, 'apps', built))) {
    console.error(`e2e server: apps/${built} is missing; run \`npm run build\` first`);
    process.exit(1);
  }
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

const port = await freePort();
const dataDir = mkdtempSync(path.join(tmpdir(), 'careplane-e2e-'));
const baseUrl = `http://${HOST}:${port}`;

// Identities for the tests of the authenticator app and of the console's sign-in, with their one-time
// enrollment codes (one per try of a test), made on the fresh database before the server holds it; the specs read
// <tmpdir>/careplane-e2e-<port>-identities.json. Roles follow a colon; each sign-in test has its own.
const identitiesFile = path.join(tmpdir(), `careplane-e2e-${port}-identities.json`);
const testIdentities = [
  'pwa.one@careplane.local',
  'pwa.two@careplane.local',
  'console.qr@careplane.local:admin',
  'console.admin@careplane.local:admin',
  'console.user@careplane.local',
  'console.denied@careplane.local:admin',
  'console.menu@careplane.local:admin',
  'console.late@careplane.local:admin',
  'console.expiry@careplane.local:admin',
  // The admin specs (apps/web/e2e/admin*.spec.ts) sign in once per run as this one.
  'console.kit@careplane.local:admin',
  'console.documents@careplane.local',
  // apps/web/e2e/prescriptions.spec.ts: the custody chain, each party in a browser of its own.
  'console.rx.admin@careplane.local:admin',
  'console.rx.doctor@careplane.local',
  'console.rx.pharmacist@careplane.local',
  'console.rx.driver@careplane.local',
  // apps/web/e2e/prescriptions-offline.spec.ts: the driver who delivers offline, and the parties before them.
  'console.rx.offline.admin@careplane.local:admin',
  'console.rx.offline.doctor@careplane.local',
  'console.rx.offline.pharmacist@careplane.local',
  'console.rx.offline.driver@careplane.local',
  // … and a phone whose first visit is followed by a reload without a network.
  'console.rx.offline.first@careplane.local',
  // apps/web/e2e/prescriptions-offline-conflict.spec.ts: a hold kept offline while a colleague marks ready.
  'console.rx.conflict.admin@careplane.local:admin',
  'console.rx.conflict.doctor@careplane.local',
  'console.rx.conflict.pharmacist@careplane.local',
  'console.rx.conflict.driver@careplane.local',
  // A supervisor whose command center the admin spec of the command-center view makes.
  'console.supervisor@careplane.local',
  // A nurse of a command center the same spec makes, who opens a patient's page there.
  'console.center.nurse@careplane.local',
  // apps/web/e2e/console-thai.spec.ts: switches the console to Thai (stored on this account).
  'console.thai@careplane.local:admin',
];
const identities = execFileSync(
  path.join(repo, 'node_modules/.bin/tsx'),
  ['--tsconfig', 'apps/server/tsconfig.json', 'apps/server/src/dev/e2e-identities.ts', ...testIdentities],
  {
    cwd: repo,
    // One enrollment code per try of a test (the Playwright config sets CAREPLANE_E2E_TRIES from its retries).
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'silent',
      E2E_TRIES: process.env.CAREPLANE_E2E_TRIES ?? '1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
writeFileSync(identitiesFile, identities);

// The server's log goes to stderr so that stdout carries only the ready line the test runner waits for.
const server = spawn('npm', ['run', 'start', '-w', '@careplane/server'], {
  cwd: repo,
  stdio: ['ignore', process.stderr, process.stderr],
  env: {
    ...process.env,
    PORT: String(port),
    HOST,
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    // The admin specs share one sign-in made when the run starts (apps/web/e2e/admin.setup.ts). With the
    // default 30-minute token, a run slower than that (a loaded CI machine) would meet the expiry dialog in its
    // last admin tests; four hours outlasts any run. The expiry itself is tested on a server of its own with a
    // short token (login.spec.ts sets this variable).
    AUTH_ACCESS_TOKEN_TTL: process.env.AUTH_ACCESS_TOKEN_TTL ?? '14400',
  },
});

// Asked to stop (the test runner's SIGTERM) is a clean end; anything else is a failure.
let stopping = false;
let failed = false;
server.on('exit', (code, signal) => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(identitiesFile, { force: true });
  if (!stopping) console.error(`e2e server: the server stopped (${signal ?? `exit code ${code}`})`);
  process.exit(stopping && !failed ? 0 : 1);
});
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    stopping = true;
    server.kill(signal);
  });
}

const started = Date.now();
for (;;) {
  try {
    const response = await fetch(`${baseUrl}/api/health`);
    if (response.ok) break;
  } catch {
    // not listening yet
  }
  if (Date.now() - started > READY_WITHIN_MS) {
    console.error(`e2e server: no answer from ${baseUrl}/api/health within ${READY_WITHIN_MS / 1000} s`);
    stopping = failed = true;
    server.kill('SIGTERM');
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
}
if (!stopping) console.log(`Careplane e2e server ready on port ${port}`);
