// Real files for the demo prescriptions' receipts: the seed writes each issued prescription's receipt and each
// pickup receipt as a document with its signers; here each gets the generated prescription PDF or pickup
// receipt, signed the way a phone signs: with the demo identities' keys from the demo authenticator store, and
// for the demo people who have no phone (the doctors and couriers of other regions) with a key made for the
// demo, certified by the platform CA like any other. So a fresh start downloads, and anyone verifies, every
// receipt the demo shows as signed. Runs while receipts still lack a file.
import { createHash } from 'node:crypto';
import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { SignatureEntry } from '@careplane/shared/documents/documents.contract';
import { addressLine } from '@careplane/shared/common/record-labels';
import type { AppConfig } from '@/config.js';
import type { Database } from '@/db/client.js';
import { holdDemoLock } from '@/db/seed/demo.js';
import { documents, prescriptions, serviceProviders, users } from '@/db/schema/index.js';
import type { SecretBox } from '@/lib/secret-box.js';
import { upsertFile } from '@/modules/documents/document-files.repository.js';
import { updateDocument } from '@/modules/documents/documents.repository.js';
import { openPlatformCa, resolveCaPassphrase } from '@/modules/documents/platform-ca.js';
import {
  pickupReceiptPdf,
  prescriptionPdf,
  receiptLanguage,
  type PdfItem,
} from '@/modules/prescriptions/prescription-pdf.js';
import {
  exportPrivateJwk,
  exportPublicJwk,
  generateAuthenticatorKey,
  jwkThumbprint,
} from '@careplane/shared/authenticator/protocol';
import { storableJwk } from '@/lib/authenticator-store.js';
import { demoSigners, recordCompletedSignatures, signOnce, type Signer } from './demo-documents.js';

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export async function ensureDemoPrescriptionReceipts(options: {
  db: Database;
  config: AppConfig;
  storePath: string;
  issuer: string;
  secrets: SecretBox;
}): Promise<number> {
  const { db } = options;
  const receipts = await db
    .select({ prescription: prescriptions, document: documents })
    .from(prescriptions)
    .innerJoin(
      documents,
      or(eq(documents.id, prescriptions.issuerReceiptId), eq(documents.id, prescriptions.pickupReceiptId)),
    )
    .where(isNull(documents.originalSha256));
  if (receipts.length === 0) return 0;

  const signers = new Map<string, Signer>();
  for (const signer of (await demoSigners(db, options.storePath, options.issuer)).values()) {
    signers.set(signer.userId, signer);
  }
  const signerIds = (document: (typeof receipts)[number]['document']) =>
    document.signingPartiesMetadata.map((entry) => entry.userId);
  const withoutPhone = [...new Set(receipts.flatMap(({ document }) => signerIds(document)))].filter(
    (id): id is string => typeof id === 'string' && !signers.has(id),
  );
  for (const signer of await keysMadeForTheDemo(db, withoutPhone, options.issuer)) {
    signers.set(signer.userId, signer);
  }
  const signable = receipts.filter(({ document }) => {
    const ids = signerIds(document);
    return ids.length > 0 && ids.every((id) => typeof id === 'string' && signers.has(id));
  });
  if (signable.length === 0) return 0;

  const userIds = [
    ...new Set(signable.flatMap(({ prescription }) => [prescription.issuerId, prescription.recipientId])),
  ].filter((id) => id !== null);
  const people = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      language: users.language,
    })
    .from(users)
    .where(inArray(users.id, userIds));
  const names = new Map(
    people.map((user) => [
      user.id,
      [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username,
    ]),
  );
  const languages = new Map(people.map((user) => [user.id, receiptLanguage(user.language)]));
  const supplierIds = [...new Set(signable.map(({ prescription }) => prescription.supplierId))].filter(
    (id) => id !== null,
  );
  const suppliers = new Map(
    (
      await db
        .select({ id: serviceProviders.id, title: serviceProviders.title })
        .from(serviceProviders)
        .where(inArray(serviceProviders.id, supplierIds))
    ).map((provider) => [provider.id, provider.title]),
  );

  const ca = await openPlatformCa(
    db,
    resolveCaPassphrase({ source: options.config.documents.caPassphrase, secrets: options.secrets }),
  );
  const verificationUrl = (id: string) => `${options.config.publicUrl}/verify?prescription=${id}`;
  // Signing times a second apart, from now (the certificates are issued now, so never earlier).
  let clock = Math.floor(Date.now() / 1000) * 1000 + 1000;
  let made = 0;
  for (const { prescription, document } of signable) {
    const isIssue = document.id === prescription.issuerReceiptId;
    const entries = document.signingPartiesMetadata;
    const first = signers.get(entries[0]!.userId as string)!;
    const common = {
      language: languages.get(prescription.recipientId ?? '') ?? receiptLanguage(null),
      prescriptionId: prescription.id,
      recipient: names.get(prescription.recipientId ?? '') ?? 'Unknown',
      supplier: suppliers.get(prescription.supplierId ?? '') ?? 'Unknown',
      items: prescription.content as unknown as PdfItem[],
      date: prescription.createdAt,
      timeZone: options.config.timeZone,
      verificationUrl: verificationUrl(prescription.id),
    };
    const original = isIssue
      ? await prescriptionPdf({ ...common, issuer: names.get(prescription.issuerId ?? '') ?? first.name })
      : await pickupReceiptPdf({
          ...common,
          picker: first.name,
          deliveryAddress: addressLine(prescription.deliveryAddress),
        });
    const files = [original];
    const metadata: SignatureEntry[] = [];
    let current = original;
    for (const raw of entries) {
      const signer = signers.get(raw.userId as string)!;
      const { signed, entry } = await signOnce(ca, current, signer, new Date((clock += 1000)));
      metadata.push({
        ...entry,
        role: typeof raw.role === 'string' ? raw.role : 'party',
        revisionSha256: sha256Hex(signed),
      });
      files.push(signed);
      current = signed;
    }
    const signed = await db.transaction(async (tx) => {
      // Another process started at once may have signed this receipt meanwhile: the first one's stays.
      await holdDemoLock(tx, 'careplane:demo-receipts');
      const [stillUnsigned] = await tx
        .select({ id: documents.id })
        .from(documents)
        .where(and(eq(documents.id, document.id), isNull(documents.originalSha256)));
      if (!stillUnsigned) return false;
      for (const bytes of files)
        await upsertFile(tx, { sha256: sha256Hex(bytes), size: bytes.length, bytes });
      await updateDocument(tx, document.id, {
        originalSha256: sha256Hex(original),
        signedSha256: sha256Hex(current),
        signingPartiesMetadata: metadata,
        isSigned: true,
      });
      await recordCompletedSignatures(tx, metadata);
      return true;
    });
    if (signed) made++;
  }
  return made;
}

/**
 * Signers for demo people without a phone: a P-256 key made now (kept nowhere else) and the user as the
 * identity the certificate names. What it signs verifies like a phone's signature.
 */
async function keysMadeForTheDemo(db: Database, userIds: string[], issuer: string): Promise<Signer[]> {
  if (userIds.length === 0) return [];
  const people = await db
    .select({
      id: users.id,
      username: users.username,
      masterId: users.masterId,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(users)
    .where(inArray(users.id, userIds));
  return Promise.all(
    people.map(async (person) => {
      const pair = await generateAuthenticatorKey(true);
      const privateJwk = storableJwk(await exportPrivateJwk(pair.privateKey));
      const keyId = await jwkThumbprint(await exportPublicJwk(pair.publicKey));
      return {
        userId: person.id,
        identityId: person.masterId ?? person.id,
        username: person.username,
        name: [person.firstName, person.lastName].filter(Boolean).join(' ') || person.username,
        stored: {
          issuer,
          username: person.username,
          keyId,
          privateJwk,
          ...(person.firstName ? { firstName: person.firstName } : {}),
          ...(person.lastName ? { lastName: person.lastName } : {}),
          enrolledAt: new Date().toISOString(),
        },
      };
    }),
  );
}

/** Receipts still without a file (those whose signers could not be found). */
export async function receiptsWithoutFile(db: Database) {
  const rows = await db
    .select({ id: documents.id })
    .from(prescriptions)
    .innerJoin(
      documents,
      or(eq(documents.id, prescriptions.issuerReceiptId), eq(documents.id, prescriptions.pickupReceiptId)),
    )
    .where(and(isNull(documents.originalSha256)));
  return rows.length;
}
