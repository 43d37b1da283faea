// All SQL of the documents module: documents and their parties, files by SHA-256 (read in slices for
// downloads), the signing CA and the certificates it issued, and the signatures asked of phones.
import { and, asc, count, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { documentListSpec, type DocumentScope } from '@careplane/shared/documents/documents.contract';
import type { Executor } from '../../db/client.js';
import {
  documentCertificateAuthority,
  documentFiles,
  documentSignerCertificates,
  documentSigningParties,
  documentSigningRequests,
  documents,
  users,
} from '../../db/schema/index.js';
import { badRequest } from '../../lib/errors.js';
import {
  bindListSpec,
  buildListSql,
  column,
  type FilterBinding,
  type ListCriteria,
} from '../../lib/resources/filters.js';

export type DocumentRow = typeof documents.$inferSelect;
export type SigningRequestRow = typeof documentSigningRequests.$inferSelect;
export type SignerCertificateRow = Omit<typeof documentSignerCertificates.$inferSelect, 'createdAt'>;

// ---------------------------------------------------------------------------------------------------------
// Who sees what

const partyOf = (userId: string) =>
  sql`exists (select 1 from ${documentSigningParties} where ${documentSigningParties.documentId} = ${documents.id} and ${documentSigningParties.userId} = ${userId})`;

const signedBy = (userId: string) =>
  sql`${documents.signingPartiesMetadata} @> ${JSON.stringify([{ userId }])}::jsonb`;

/** The documents a user may see: their own and those they are asked to sign. */
export const visibleTo = (userId: string): SQL => or(eq(documents.createdByUserId, userId), partyOf(userId))!;

const scopeCondition = (userId: string, scope: DocumentScope): SQL => {
  switch (scope) {
    case 'own':
      return eq(documents.createdByUserId, userId);
    case 'shared':
      return partyOf(userId);
    case 'waiting':
      return and(partyOf(userId), sql`not ${signedBy(userId)}`)!;
  }
};

/** `scope~own,waiting`: relative to the caller, so bound per request. */
const scopeFilter =
  (userId: string | null): FilterBinding =>
  (kind) => ({
    kind,
    build: (values, isNullFilter) => {
      if (isNullFilter || !userId) return sql`false`;
      return or(...values.map((value) => scopeCondition(userId, value as DocumentScope)))!;
    },
  });

const listQuery = (userId: string | null) =>
  bindListSpec(documentListSpec, {
    idColumn: documents.id,
    filters: {
      scope: scopeFilter(userId),
      id: column(documents.id),
      isSigned: column(documents.isSigned),
      'createdByUser.id': column(documents.createdByUserId),
    },
    search: { id: documents.id, title: documents.title },
    sort: { createdAt: documents.createdAt, updatedAt: documents.updatedAt, title: documents.title },
  });

// ---------------------------------------------------------------------------------------------------------
// Documents

const originalFile = alias(documentFiles, 'original_file');
const signedFile = alias(documentFiles, 'signed_file');

/** A document with the sizes of its files. */
export interface DocumentRecord extends DocumentRow {
  originalSize: number | null;
  signedSize: number | null;
}

const recordColumns = {
  document: documents,
  originalSize: originalFile.size,
  signedSize: signedFile.size,
};

const selectRecords = (executor: Executor) =>
  executor
    .select(recordColumns)
    .from(documents)
    .leftJoin(originalFile, eq(originalFile.sha256, documents.originalSha256))
    .leftJoin(signedFile, eq(signedFile.sha256, documents.signedSha256));

const toRecord = (row: {
  document: DocumentRow;
  originalSize: number | null;
  signedSize: number | null;
}) => ({
  ...row.document,
  originalSize: row.originalSize,
  signedSize: row.signedSize,
});

export async function insertDocument(executor: Executor, values: typeof documents.$inferInsert) {
  const [row] = await executor.insert(documents).values(values).returning({ id: documents.id });
  return row!.id;
}

/** The document if `visible` (a condition from visibleTo, or none for an admin) admits it. */
export async function findDocument(
  executor: Executor,
  id: string,
  visible?: SQL,
): Promise<DocumentRecord | undefined> {
  const [row] = await selectRecords(executor)
    .where(and(eq(documents.id, id), visible))
    .limit(1);
  return row ? toRecord(row) : undefined;
}

/** The document row, locked until the transaction ends. */
export async function lockDocument(executor: Executor, id: string): Promise<DocumentRow | undefined> {
  const [row] = await executor.select().from(documents).where(eq(documents.id, id)).for('update');
  return row;
}

export async function updateDocument(
  executor: Executor,
  id: string,
  values: Partial<typeof documents.$inferInsert>,
) {
  await executor.update(documents).set(values).where(eq(documents.id, id));
}

export async function deleteDocument(executor: Executor, id: string) {
  const [row] = await executor
    .delete(documents)
    .where(eq(documents.id, id))
    .returning({ originalSha256: documents.originalSha256, signedSha256: documents.signedSha256 });
  return row;
}

export interface DocumentPage extends ListCriteria {
  relations: string[];
  limit: number;
  offset: number;
}

/** One page of the documents `visible` admits, filtered and sorted by the list conventions, and the total. */
export async function listDocuments(
  executor: Executor,
  page: DocumentPage,
  callerUserId: string | null,
  visible?: SQL,
) {
  if (page.relations.length) {
    throw badRequest('Documents embed no relations', [
      { path: 'relations', message: 'No relation can be embedded in documents' },
    ]);
  }
  const { where, orderBy } = buildListSql(listQuery(callerUserId), page);
  const filtered = and(where, visible);
  const [rows, [counted]] = await Promise.all([
    selectRecords(executor)
      .where(filtered)
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset),
    executor.select({ total: count() }).from(documents).where(filtered),
  ]);
  return { rows: rows.map(toRecord), total: counted?.total ?? 0 };
}

export interface PartyRow {
  documentId: string;
  userId: string;
  firstName: string | null;
  lastName: string | null;
  usernameWithoutDomain: string;
}

/** The parties of the given documents with their names, in a stable order. */
export async function partiesOf(executor: Executor, documentIds: readonly string[]): Promise<PartyRow[]> {
  if (documentIds.length === 0) return [];
  return executor
    .select({
      documentId: documentSigningParties.documentId,
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      usernameWithoutDomain: users.usernameWithoutDomain,
    })
    .from(documentSigningParties)
    .innerJoin(users, eq(users.id, documentSigningParties.userId))
    .where(inArray(documentSigningParties.documentId, [...documentIds]))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
}

export async function partyIdsOf(executor: Executor, documentId: string): Promise<string[]> {
  const rows = await executor
    .select({ userId: documentSigningParties.userId })
    .from(documentSigningParties)
    .where(eq(documentSigningParties.documentId, documentId));
  return rows.map((row) => row.userId);
}

export async function replaceParties(executor: Executor, documentId: string, userIds: readonly string[]) {
  await executor.delete(documentSigningParties).where(eq(documentSigningParties.documentId, documentId));
  if (userIds.length) {
    await executor.insert(documentSigningParties).values(userIds.map((userId) => ({ documentId, userId })));
  }
}

export interface UserName {
  id: string;
  firstName: string | null;
  lastName: string | null;
  username: string;
  usernameWithoutDomain: string;
}

export async function userNames(executor: Executor, ids: readonly string[]): Promise<UserName[]> {
  if (ids.length === 0) return [];
  return executor
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      usernameWithoutDomain: users.usernameWithoutDomain,
    })
    .from(users)
    .where(inArray(users.id, [...ids]));
}

/** Users whose name or username contains `search`, for the party picker: names only, bounded. */
export async function searchUserNames(
  executor: Executor,
  input: { search: string | undefined; excludeId: string; limit: number },
): Promise<UserName[]> {
  const text = input.search?.trim();
  const pattern = text ? `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%` : undefined;
  return executor
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      usernameWithoutDomain: users.usernameWithoutDomain,
    })
    .from(users)
    .where(
      and(
        ne(users.id, input.excludeId),
        eq(users.isBlocked, false),
        pattern
          ? or(
              ilike(users.firstName, pattern),
              ilike(users.lastName, pattern),
              ilike(users.username, pattern),
              sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${pattern}`,
            )
          : undefined,
      ),
    )
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(input.limit);
}

// ---------------------------------------------------------------------------------------------------------
// Files, by SHA-256

/** Stores a file, or takes the row lock of the stored one (so that a concurrent delete cannot remove it). */
export async function upsertFile(
  executor: Executor,
  file: { sha256: string; size: number; bytes: Uint8Array },
) {
  await executor
    .insert(documentFiles)
    .values(file)
    .onConflictDoUpdate({ target: documentFiles.sha256, set: { size: sql`excluded.size` } });
}

export async function fileSize(executor: Executor, sha256: string): Promise<number | undefined> {
  const [row] = await executor
    .select({ size: documentFiles.size })
    .from(documentFiles)
    .where(eq(documentFiles.sha256, sha256));
  return row?.size;
}

export async function fileExists(executor: Executor, sha256: string): Promise<boolean> {
  return (await fileSize(executor, sha256)) !== undefined;
}

export async function readFile(executor: Executor, sha256: string): Promise<Uint8Array | undefined> {
  const [row] = await executor
    .select({ bytes: documentFiles.bytes })
    .from(documentFiles)
    .where(eq(documentFiles.sha256, sha256));
  return row?.bytes;
}

/** `length` bytes from `offset` (0-based); the column is stored uncompressed, so only those pages are read. */
export async function readFileSlice(
  executor: Executor,
  sha256: string,
  offset: number,
  length: number,
): Promise<Uint8Array | undefined> {
  const [row] = await executor
    .select({ chunk: sql<Uint8Array>`substring(${documentFiles.bytes} from ${offset + 1} for ${length})` })
    .from(documentFiles)
    .where(eq(documentFiles.sha256, sha256));
  return row?.chunk;
}

/** Deletes the given files that no document points at any more. */
export async function deleteUnreferencedFiles(executor: Executor, sha256s: readonly string[]) {
  const wanted = [...new Set(sha256s)];
  if (wanted.length === 0) return;
  // Lock first: an upload of the same bytes holds this lock until its document row exists, and the check
  // below (a new statement) then sees that document.
  await executor
    .select({ sha256: documentFiles.sha256 })
    .from(documentFiles)
    .where(inArray(documentFiles.sha256, wanted))
    .for('update');
  await executor
    .delete(documentFiles)
    .where(
      and(
        inArray(documentFiles.sha256, wanted),
        sql`not exists (select 1 from ${documents} where ${documents.originalSha256} = ${documentFiles.sha256} or ${documents.signedSha256} = ${documentFiles.sha256})`,
      ),
    );
}

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
