// The SQL of signing: the platform CA's row, the certificates it issued for authenticator keys, the
// signatures asked of phones (decisions 023 and 031), and those Careplane completed (decision 099).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client.js';
import {
  authAuthenticatorKeys,
  documentCertificateAuthority,
  documentCompletedSignatures,
  documentSignerCertificates,
  documentSigningRequests,
} from '@/db/schema/index.js';

export type SigningRequestRow = typeof documentSigningRequests.$inferSelect;
export type SignerCertificateRow = Omit<typeof documentSignerCertificates.$inferSelect, 'createdAt'>;

// ---------------------------------------------------------------------------------------------------------
// The CA and the certificates it issued

export async function findCertificateAuthority(executor: Executor, id: string) {
  const [row] = await executor
    .select({
      certificatePem: documentCertificateAuthority.certificatePem,
      encryptedPrivateKeyPem: documentCertificateAuthority.encryptedPrivateKeyPem,
    })
    .from(documentCertificateAuthority)
    .where(eq(documentCertificateAuthority.id, id));
  return row;
}

/** Inserts the CA unless one is stored already (the first process to insert wins). */
export async function insertCertificateAuthority(
  executor: Executor,
  row: { id: string; certificatePem: string; encryptedPrivateKeyPem: string },
) {
  await executor.insert(documentCertificateAuthority).values(row).onConflictDoNothing();
}

export async function findSignerCertificate(
  executor: Executor,
  by: { fingerprint: string } | { keyId: string; identityId: string; validUntilAtLeast: Date },
): Promise<SignerCertificateRow | undefined> {
  const where =
    'fingerprint' in by
      ? eq(documentSignerCertificates.fingerprint, by.fingerprint)
      : and(
          eq(documentSignerCertificates.keyId, by.keyId),
          eq(documentSignerCertificates.identityId, by.identityId),
          sql`${documentSignerCertificates.notAfter} >= ${by.validUntilAtLeast}`,
        );
  const [row] = await executor
    .select({
      fingerprint: documentSignerCertificates.fingerprint,
      keyId: documentSignerCertificates.keyId,
      identityId: documentSignerCertificates.identityId,
      serialNumber: documentSignerCertificates.serialNumber,
      der: documentSignerCertificates.der,
      notBefore: documentSignerCertificates.notBefore,
      notAfter: documentSignerCertificates.notAfter,
    })
    .from(documentSignerCertificates)
    .where(where)
    .orderBy(sql`${documentSignerCertificates.notAfter} desc`)
    .limit(1);
  return row;
}

export async function insertSignerCertificate(executor: Executor, row: SignerCertificateRow) {
  await executor.insert(documentSignerCertificates).values(row).onConflictDoNothing();
}

// ---------------------------------------------------------------------------------------------------------
// Signatures asked of phones

export async function insertSigningRequest(
  executor: Executor,
  row: typeof documentSigningRequests.$inferInsert,
) {
  await executor.insert(documentSigningRequests).values(row);
}

export async function findSigningRequest(
  executor: Executor,
  by: { id: string; documentId?: string; userId?: string },
): Promise<SigningRequestRow | undefined> {
  const [row] = await executor
    .select()
    .from(documentSigningRequests)
    .where(
      and(
        eq(documentSigningRequests.id, by.id),
        by.documentId === undefined ? undefined : eq(documentSigningRequests.documentId, by.documentId),
        by.userId === undefined ? undefined : eq(documentSigningRequests.userId, by.userId),
      ),
    );
  return row;
}

export async function lockSigningRequest(
  executor: Executor,
  id: string,
): Promise<SigningRequestRow | undefined> {
  const [row] = await executor
    .select()
    .from(documentSigningRequests)
    .where(eq(documentSigningRequests.id, id))
    .for('update');
  return row;
}

export async function updateSigningRequest(
  executor: Executor,
  id: string,
  values: Partial<typeof documentSigningRequests.$inferInsert>,
) {
  await executor.update(documentSigningRequests).set(values).where(eq(documentSigningRequests.id, id));
}

/** Requests still waiting for a phone, oldest first (the partial index keeps this cheap). */
export async function waitingSigningRequestIds(executor: Executor, limit: number): Promise<string[]> {
  const rows = await executor
    .select({ id: documentSigningRequests.id })
    .from(documentSigningRequests)
    .where(eq(documentSigningRequests.status, 'pending'))
    .orderBy(asc(documentSigningRequests.createdAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

// ---------------------------------------------------------------------------------------------------------
// Signatures Careplane completed

/** Records a signature Careplane completed (the revision it made, with the certificate it signed with). */
export async function insertCompletedSignature(
  executor: Executor,
  row: { certificateFingerprint: string; revisionSha256: string; signingTime: Date },
) {
  await executor.insert(documentCompletedSignatures).values(row).onConflictDoNothing();
}

/**
 * Whether Careplane completed a signature that left a file with this SHA-256: what the verifier calls "known".
 * A stored upload is not: anyone signed in can upload any file, so holding one vouches for nothing.
 */
export async function isCompletedRevision(executor: Executor, sha256: string): Promise<boolean> {
  const [row] = await executor
    .select({ one: sql<number>`1` })
    .from(documentCompletedSignatures)
    .where(eq(documentCompletedSignatures.revisionSha256, sha256))
    .limit(1);
  return row !== undefined;
}

/**
 * What the verifier needs to vouch for a signature made with a certificate (by its SHA-256) that chains to the
 * CA, in one query: whether Careplane completed that signature (the revision it left), and the state of the
 * authenticator key the certificate certifies: `key` is undefined when the certificate is not on record, null
 * when its key is no longer enrolled (the row is gone, as when its user was deleted).
 */
export async function findSignerStanding(
  executor: Executor,
  by: { certificateSha256: string; revisionSha256: string | null },
): Promise<{ completed: boolean; key: { revokedAt: Date | null } | null | undefined }> {
  const completed =
    by.revisionSha256 === null
      ? sql<boolean>`false`
      : sql<boolean>`exists (select 1 from ${documentCompletedSignatures} where ${and(
          eq(documentCompletedSignatures.certificateFingerprint, by.certificateSha256),
          eq(documentCompletedSignatures.revisionSha256, by.revisionSha256),
        )})`;
  // One row whatever is on record: a signature Careplane completed counts even if its certificate is not.
  const [row] = await executor
    .select({
      completed,
      certificate: documentSignerCertificates.fingerprint,
      keyId: authAuthenticatorKeys.id,
      revokedAt: authAuthenticatorKeys.revokedAt,
    })
    .from(sql`(values (1)) as one`)
    .leftJoin(documentSignerCertificates, eq(documentSignerCertificates.fingerprint, by.certificateSha256))
    .leftJoin(
      authAuthenticatorKeys,
      and(
        eq(authAuthenticatorKeys.id, documentSignerCertificates.keyId),
        eq(authAuthenticatorKeys.identityId, documentSignerCertificates.identityId),
      ),
    );
  return {
    completed: row?.completed === true,
    key: !row?.certificate ? undefined : row.keyId === null ? null : { revokedAt: row.revokedAt },
  };
}
