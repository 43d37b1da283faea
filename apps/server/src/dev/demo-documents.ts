// Documents for the demo: real PDFs (the core's sample generator), some signed by one or two demo identities,
// some waiting for a signature, so that the Documents area and the verifier show something on a fresh start.
// The signatures are made with the demo identities' keys from the demo authenticator store, through the same
// prepare and complete steps a phone's signature goes through. Runs once: only while no document holds a file.
import { createHash, webcrypto } from 'node:crypto';
import { inArray, isNotNull } from 'drizzle-orm';
import { completeSignature, prepareSignature } from '@careplane/pdf-signatures';
import { createSamplePdf } from '@careplane/pdf-signatures/samples';
import type { SignatureEntry } from '@careplane/shared/documents/documents.contract';
import type { PublicJwk } from '@careplane/shared/authenticator/protocol';
import { readStore, type StoredIdentity } from '@/lib/authenticator-store.js';
import type { AppConfig } from '@/config.js';
import type { Database, Executor } from '@/db/client.js';
import type { SecretBox } from '@/lib/secret-box.js';
import { documents, users } from '@/db/schema/index.js';
import { upsertFile } from '@/modules/documents/document-files.repository.js';
import { insertDocument, replaceParties } from '@/modules/documents/documents.repository.js';
import { SIGNING_REASON } from '@/modules/documents/documents.service.js';
import { openPlatformCa, resolveCaPassphrase, type PlatformCa } from '@/modules/documents/platform-ca.js';
import { insertCompletedSignature } from '@/modules/documents/signing.repository.js';
import { holdDemoLock } from '@/db/seed/demo.js';

export interface Signer {
  userId: string;
  identityId: string;
  username: string;
  name: string;
  stored: StoredIdentity;
}

interface DemoDocument {
  title: string;
  lines: string[];
  owner: string;
  parties: string[];
  /** Who signs, in order (usernames' local parts). */
  signers: string[];
}

/** Owned by, shared with and waiting for the demo admin, so the three lists of the area have something. */
const DEMO_DOCUMENTS: DemoDocument[] = [
  {
    title: 'Visit schedule, December',
    lines: [
      'Morning visits 08:00-10:00, evening visits 17:00-19:00.',
      'Weekend visits by the on-call nurse of the command center.',
    ],
    owner: 'admin',
    parties: [],
    signers: ['admin'],
  },
  {
    title: 'Care plan for Ann Example',
    lines: [
      'Patient: Ann Example, born 02.03.1941',
      'Visits: daily at 08:00 and 18:00; medication check at each visit.',
      'Blood pressure measured every morning and sent from the home device.',
    ],
    owner: 'doctor',
    parties: ['nurse', 'admin'],
    signers: ['doctor', 'nurse'],
  },
  {
    title: 'Home monitoring consent',
    lines: [
      'The patient agrees to readings sent by the home devices: heart rate, blood pressure, temperature.',
      'Readings outside the agreed bounds alert the command center.',
    ],
    owner: 'nurse',
    parties: ['admin'],
    signers: ['nurse', 'admin'],
  },
  {
    title: 'Equipment loan agreement',
    lines: ['One blood pressure monitor and one tablet, lent for the duration of the care plan.'],
    owner: 'admin',
    parties: ['patient'],
    signers: [],
  },
];

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function signWithStoredKey(stored: StoredIdentity, data: Uint8Array): Promise<Uint8Array> {
  const key = await webcrypto.subtle.importKey(
    'jwk',
    stored.privateJwk,
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['sign'],
  );
  return new Uint8Array(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, data));
}

export async function signOnce(
  ca: PlatformCa,
  pdf: Uint8Array,
  signer: Signer,
  signingTime: Date,
): Promise<{ signed: Uint8Array; entry: Omit<SignatureEntry, 'role' | 'revisionSha256'> }> {
  const { x, y } = signer.stored.privateJwk;
  const publicJwk: PublicJwk = { kty: 'EC', crv: 'P-256', x, y };
  const certificate = await ca.certificateForKey({
    keyId: signer.stored.keyId,
    identityId: signer.identityId,
    publicJwk,
    identity: {
      firstName: signer.stored.firstName ?? '',
      lastName: signer.stored.lastName ?? '',
      username: signer.username,
    },
  });
  const prepared = prepareSignature(pdf, {
    signerName: signer.name,
    signingTime,
    signerCertificate: certificate.der,
    caCertificate: ca.certificateDer,
    reason: SIGNING_REASON,
  });
  const signed = completeSignature(prepared, {
    signature: await signWithStoredKey(signer.stored, prepared.toBeSigned),
  });
  return {
    signed,
    entry: {
      userId: signer.userId,
      name: signer.name,
      username: signer.username,
      signedAt: signingTime.toISOString(),
      method: 'authenticator',
      keyId: signer.stored.keyId,
      certificateSerial: certificate.serialNumber,
      certificateSha256: certificate.fingerprint,
    },
  };
}

/** Records the demo's signatures as completed by Careplane, as a phone's signature would be (decision 099). */
export async function recordCompletedSignatures(tx: Executor, metadata: readonly SignatureEntry[]) {
  for (const entry of metadata) {
    if (!entry.certificateSha256 || !entry.revisionSha256) continue;
    await insertCompletedSignature(tx, {
      certificateFingerprint: entry.certificateSha256,
      revisionSha256: entry.revisionSha256,
      signingTime: new Date(entry.signedAt),
    });
  }
}

/** The demo identities of the authenticator store that have a user, by their username's local part. */
export async function demoSigners(
  db: Database,
  storePath: string,
  issuer: string,
): Promise<Map<string, Signer>> {
  const stored = readStore(storePath).identities.filter((entry) => entry.issuer === issuer);
  const rows = stored.length
    ? await db
        .select({
          id: users.id,
          username: users.username,
          masterId: users.masterId,
          firstName: users.firstName,
          lastName: users.lastName,
        })
        .from(users)
        .where(
          inArray(
            users.username,
            stored.map((entry) => entry.username),
          ),
        )
    : [];
  const people = new Map<string, Signer>();
  for (const entry of stored) {
    const user = rows.find((row) => row.username === entry.username);
    if (!user?.masterId) continue;
    people.set(entry.username.split('@')[0]!, {
      userId: user.id,
      identityId: user.masterId,
      username: entry.username,
      name: [user.firstName, user.lastName].filter(Boolean).join(' ') || entry.username,
      stored: entry,
    });
  }
  return people;
}

/**
 * Creates the demo documents when no document holds a file yet. Needs the demo users and their keys in the
 * demo authenticator store (ensureDemoSignIn writes it); documents whose people are missing are left out.
 * Returns how many documents it created.
 */
export async function ensureDemoDocuments(options: {
  db: Database;
  config: AppConfig;
  storePath: string;
  issuer: string;
  /** The server's encryption key (the CA passphrase derives from it by default). */
  secrets: SecretBox;
}): Promise<number> {
  const { db } = options;
  if (await hasDemoDocuments(db)) return 0;

  const people = await demoSigners(db, options.storePath, options.issuer);
  const wanted = DEMO_DOCUMENTS.filter((plan) =>
    [plan.owner, ...plan.parties, ...plan.signers].every((who) => people.has(who)),
  );
  if (wanted.length === 0) return 0;

  const ca = await openPlatformCa(
    db,
    resolveCaPassphrase({ source: options.config.documents.caPassphrase, secrets: options.secrets }),
  );
  // Signing times a few minutes apart, ending now (the certificates are issued now, so never earlier).
  const start = Math.floor(Date.now() / 1000) * 1000 + 1000;
  let clock = 0;
  const prepared: {
    plan: DemoDocument;
    original: Uint8Array;
    revisions: Uint8Array[];
    metadata: SignatureEntry[];
  }[] = [];
  for (const [index, plan] of DEMO_DOCUMENTS.entries()) {
    if (!wanted.includes(plan)) continue;
    const original = await createSamplePdf({
      title: plan.title,
      lines: plan.lines,
      date: new Date(Date.UTC(2026, 10, 20 + index, 9)),
    });
    const revisions: Uint8Array[] = [];
    const metadata: SignatureEntry[] = [];
    let current = original;
    for (const who of plan.signers) {
      const signer = people.get(who)!;
      const { signed, entry } = await signOnce(ca, current, signer, new Date(start + clock++ * 1000));
      metadata.push({
        ...entry,
        role: who === plan.owner ? 'owner' : 'party',
        revisionSha256: sha256Hex(signed),
      });
      revisions.push(signed);
      current = signed;
    }
    prepared.push({ plan, original, revisions, metadata });
  }

  return db.transaction(async (tx) => {
    await holdDemoLock(tx, DEMO_DOCUMENTS_LOCK_KEY);
    if (await hasDemoDocuments(tx)) return 0;
    for (const { plan, original, revisions, metadata } of prepared) {
      for (const bytes of [original, ...revisions]) {
        await upsertFile(tx, { sha256: sha256Hex(bytes), size: bytes.length, bytes });
      }
      const parties = plan.parties.map((who) => people.get(who)!.userId);
      const signers = new Set(metadata.map((entry) => entry.userId));
      const id = await insertDocument(tx, {
        title: plan.title,
        originalSha256: sha256Hex(original),
        signedSha256: revisions.length ? sha256Hex(revisions.at(-1)!) : null,
        signingPartiesMetadata: metadata,
        isSigned: metadata.length > 0 && parties.every((party) => signers.has(party)),
        createdByUserId: people.get(plan.owner)!.userId,
      });
      await replaceParties(tx, id, parties);
      await recordCompletedSignatures(tx, metadata);
    }
    return prepared.length;
  });
}

const DEMO_DOCUMENTS_LOCK_KEY = 'careplane:demo-documents';

async function hasDemoDocuments(executor: Executor) {
  const [withFile] = await executor
    .select({ id: documents.id })
    .from(documents)
    .where(isNotNull(documents.originalSha256))
    .limit(1);
  return withFile !== undefined;
}
