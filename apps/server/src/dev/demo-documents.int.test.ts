// Demo documents: real PDFs, some signed with the demo identities' stored keys through the same two steps as
// a phone's signature, some waiting; created once, and each signed file verifies as authentic.
import path from 'node:path';
import { isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFiles, documents } from '@/db/schema/index.js';
import { verifyPdf } from '@careplane/pdf-signatures';
import { pdfsig } from '@careplane/pdf-signatures/testing';
import type { AuthTestServer } from '@/test/auth-server.js';
import { DEMO_SETUP_TIMEOUT_MS, startDemoTestServer, type DemoTestServer } from './demo.test-helpers.js';
import { ensureDemoDocuments } from './demo-documents.js';

let demoServer: DemoTestServer;
let t: AuthTestServer;
let dataDir: string;
let runs: number[];
const db = () => t.database.handle.db;

beforeAll(async () => {
  demoServer = await startDemoTestServer('careplane-demo-documents-');
  ({ t, dataDir } = demoServer);
  // Two processes started at once on a new database: one creates the documents, the other finds them.
  const options = {
    db: db(),
    config: t.config,
    storePath: demoServer.storePath,
    issuer: t.issuer,
    secrets: t.app.secrets,
  };
  runs = await Promise.all([ensureDemoDocuments(options), ensureDemoDocuments(options)]);
}, DEMO_SETUP_TIMEOUT_MS);

afterAll(async () => {
  await demoServer?.close();
});

describe('demo documents', () => {
  it('creates four documents with files once, though two processes start at once: signed once, twice (one party pending), and not yet', async () => {
    expect([...runs].sort()).toEqual([0, 4]);
    const rows = await db().select().from(documents).where(isNotNull(documents.originalSha256));
    expect(rows).toHaveLength(4);
    const byTitle = new Map(rows.map((row) => [row.title, row]));
    expect(byTitle.get('Visit schedule, December')).toMatchObject({ isSigned: true });
    expect(byTitle.get('Care plan for Ann Example')?.signingPartiesMetadata).toHaveLength(2);
    expect(byTitle.get('Care plan for Ann Example')?.isSigned).toBe(false);
    expect(byTitle.get('Home monitoring consent')?.isSigned).toBe(true);
    expect(byTitle.get('Equipment loan agreement')).toMatchObject({ isSigned: false, signedSha256: null });
  });

  it('signs them so that the verifier and pdfsig find them intact and vouched for by the platform CA', async () => {
    const response = await t.app.inject({ url: '/api/documents/ca.pem' });
    const caCertificate = response.body;
    const [plan] = await db()
      .select()
      .from(documents)
      .where(isNotNull(documents.signedSha256))
      .then((rows) => rows.filter((row) => row.title === 'Care plan for Ann Example'));
    const [file] = (await db().select().from(documentFiles)).filter(
      (row) => row.sha256 === plan!.signedSha256,
    );
    const report = await verifyPdf(file!.bytes, { caCertificate, isKnownDigest: () => true });
    expect(report.verdict.status).toBe('authentic');
    expect(report.signatures.map((signature) => signature.signer?.username)).toEqual([
      'doctor@careplane.local',
      'nurse@careplane.local',
    ]);
    expect(report.signatures.every((signature) => signature.chainsToPlatformCa)).toBe(true);
    const checked = await pdfsig(file!.bytes);
    expect(checked.signatures.map((signature) => signature.validation)).toEqual([
      'Signature is Valid.',
      'Signature is Valid.',
    ]);
  });

  it('does nothing on the next start', async () => {
    const again = await ensureDemoDocuments({
      db: db(),
      config: t.config,
      storePath: path.join(dataDir, 'demo-authenticator.json'),
      issuer: t.issuer,
      secrets: t.app.secrets,
    });
    expect(again).toBe(0);
    expect(await db().select().from(documents).where(isNotNull(documents.originalSha256))).toHaveLength(4);
  });
});
