// Demo prescription receipts: on a fresh start the receipts whose signers are demo identities become real
// PDFs signed with their stored keys (pdfsig accepts them); the named demo people's areas are full; a second
// start changes nothing.
import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableActions } from '@careplane/shared/prescriptions/prescription-actors';
import type { PrescriptionStatus } from '@careplane/shared/common/enums';
import {
  documentCompletedSignatures,
  documentFiles,
  documents,
  prescriptions,
  userEmployers,
  users,
} from '@/db/schema/index.js';
import { pdfsig } from '@careplane/pdf-signatures/testing';
import type { AuthTestServer } from '@/test/auth-server.js';
import { DEMO_SETUP_TIMEOUT_MS, startDemoTestServer, type DemoTestServer } from './demo.test-helpers.js';
import { ensureDemoPrescriptionReceipts, receiptsWithoutFile } from './demo-prescription-receipts.js';

let demoServer: DemoTestServer;
let t: AuthTestServer;
let storePath: string;
let signed: number;
const db = () => t.database.handle.db;

beforeAll(async () => {
  demoServer = await startDemoTestServer('careplane-demo-receipts-');
  ({ t, storePath } = demoServer);
  // Two processes started at once on a new database: each receipt is signed by one of them.
  const options = { db: db(), config: t.config, storePath, issuer: t.issuer, secrets: t.app.secrets };
  const [first, second] = await Promise.all([
    ensureDemoPrescriptionReceipts(options),
    ensureDemoPrescriptionReceipts(options),
  ]);
  signed = first + second;
}, DEMO_SETUP_TIMEOUT_MS);

afterAll(async () => {
  await demoServer?.close();
});

describe('demo prescription receipts', () => {
  it('signs every receipt of the named demo people, with files pdfsig accepts', async () => {
    expect(signed).toBeGreaterThan(0);
    const doctor = (await db().select().from(users).where(eq(users.username, 'doctor@careplane.local')))[0]!;
    const ownIssued = await db()
      .select({ receipt: prescriptions.issuerReceiptId })
      .from(prescriptions)
      .where(eq(prescriptions.issuerId, doctor.id));
    const receiptIds = ownIssued.map((row) => row.receipt).filter((id) => id !== null);
    expect(receiptIds.length).toBeGreaterThan(0);
    const rows = await db().select().from(documents).where(inArray(documents.id, receiptIds));
    expect(rows.every((row) => row.signedSha256 !== null && row.isSigned)).toBe(true);
    const [file] = await db()
      .select()
      .from(documentFiles)
      .where(eq(documentFiles.sha256, rows[0]!.signedSha256!));
    const checked = await pdfsig(file!.bytes);
    expect(checked.signatures.map((signature) => signature.validation)).toEqual(['Signature is Valid.']);
    expect(checked.signatures[0]!.commonName).toContain(doctor.firstName);
  });

  it('signs each receipt once when two processes start at once', async () => {
    const withFile = await db().select().from(documents).where(isNotNull(documents.originalSha256));
    expect(signed).toBe(withFile.length);
    const completed = await db().select().from(documentCompletedSignatures);
    expect(completed).toHaveLength(withFile.reduce((sum, row) => sum + row.signingPartiesMetadata.length, 0));
  });

  it('signs the receipts of the demo people without a phone too: no receipt is left without its file', async () => {
    expect(await receiptsWithoutFile(db())).toBe(0);
    const [regional] = await db()
      .select({ receipt: prescriptions.issuerReceiptId })
      .from(prescriptions)
      .innerJoin(users, eq(users.id, prescriptions.issuerId))
      .where(and(isNull(users.masterId), isNotNull(prescriptions.issuerReceiptId)));
    expect(
      regional,
      'the demo has a prescription issued by a doctor without a sign-in identity',
    ).toBeDefined();
    const [receipt] = await db().select().from(documents).where(eq(documents.id, regional!.receipt!));
    const [file] = await db()
      .select()
      .from(documentFiles)
      .where(eq(documentFiles.sha256, receipt!.signedSha256!));
    const checked = await pdfsig(file!.bytes);
    expect(checked.signatures.map((signature) => signature.validation)).toEqual(['Signature is Valid.']);
  });

  it('fills the demo pharmacist’s and couriers’ queues with prescriptions they may act on', async () => {
    const person = async (username: string) => {
      const [user] = await db().select().from(users).where(eq(users.username, username));
      const employers = await db()
        .select({ id: userEmployers.serviceProviderId })
        .from(userEmployers)
        .where(eq(userEmployers.userId, user!.id));
      return {
        userId: user!.id,
        localRoles: user!.localRoles,
        employerIds: employers.map((row) => row.id),
        isAdmin: false,
      };
    };
    const all = await db().select().from(prescriptions);
    const actionable = (viewer: Awaited<ReturnType<typeof person>>) =>
      all.filter(
        (row) => availableActions({ ...row, status: row.status as PrescriptionStatus }, viewer).length > 0,
      ).length;
    for (const username of [
      'pharmacist@careplane.local',
      'driver@careplane.local',
      'courier@careplane.local',
      'nurse@careplane.local',
    ]) {
      expect(actionable(await person(username)), username).toBeGreaterThan(0);
    }
  });

  it('does nothing on the next start', async () => {
    const before = await receiptsWithoutFile(db());
    const again = await ensureDemoPrescriptionReceipts({
      db: db(),
      config: t.config,
      storePath,
      issuer: t.issuer,
      secrets: t.app.secrets,
    });
    expect(again).toBe(0);
    expect(await receiptsWithoutFile(db())).toBe(before);
    expect((await db().select().from(documents).where(isNotNull(documents.originalSha256))).length).toBe(
      signed,
    );
  });
});
