// Shared set-up of the demo tests: an app with its auth server on a database holding the demo data, and the
// demo identities' sign-in (their keys in a throwaway data folder), as a fresh `npm start` has them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadDemoDataIfEmpty } from '@/db/seed/demo.js';
import { startAuthTestServer, type AuthTestServer } from '@/test/auth-server.js';
import { ensureDemoSignIn, injectFetch } from './demo-sign-in.js';

/**
 * How long a demo test file's set-up may take: the whole demo loaded, its identities enrolled, and in some files
 * every demo document or receipt signed, twice at once. That is 15-20 s on a quiet two-core machine and has been
 * seen past the default 60 s hook budget when CI's machine ran three times slower.
 */
export const DEMO_SETUP_TIMEOUT_MS = 180_000;

export interface DemoTestServer {
  t: AuthTestServer;
  /** The throwaway data folder; the demo authenticator store is in it. */
  dataDir: string;
  /** The demo identities' key store. */
  storePath: string;
  close(): Promise<void>;
}

export async function startDemoTestServer(folderPrefix: string): Promise<DemoTestServer> {
  const t = await startAuthTestServer({ AUTH_RATE_LIMIT_PER_IDENTITY: '1000' });
  const dataDir = mkdtempSync(path.join(tmpdir(), folderPrefix));
  await loadDemoDataIfEmpty(t.database.handle);
  const demo = (await ensureDemoSignIn({
    db: t.database.handle.db,
    authServer: t.server,
    fetch: injectFetch(t.app),
    dataDir,
  }))!;
  return {
    t,
    dataDir,
    storePath: demo.storePath,
    close: async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
