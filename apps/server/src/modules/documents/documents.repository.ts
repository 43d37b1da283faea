// The SQL of documents and their parties: who sees what, the list with its filters, the parties' names and
// the names offered for sharing. Files are in document-files.repository.ts; the CA, the certificates it
// issued and the signatures asked of phones in signing.repository.ts.
import { and, asc, count, eq, ilike, inArray, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { documentListSpec, type DocumentScope } from '@careplane/shared/documents/documents.contract';
import type { Executor } from '@/db/client.js';
import { documentFiles, documentSigningParties, documents, users } from '@/db/schema/index.js';
import { badRequest, serviceTexts } from '@/lib/errors.js';
import { searchableName } from '@/modules/users/users.service.js';
import {
  bindListSpec,
  buildListSql,
  column,
  type FilterBinding,
  type ListCriteria,
} from '@/lib/resources/filters.js';

export type DocumentRow = typeof documents.$inferSelect;

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
      // Only what can be signed waits: a record with no file (one kept from before files) has nothing to sign.
      return and(partyOf(userId), sql`not ${signedBy(userId)}`, isNotNull(documents.originalSha256))!;
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
    throw badRequest(serviceTexts.documentsNoRelations, [
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
        pattern ? or(ilike(searchableName, pattern), ilike(users.username, pattern)) : undefined,
      ),
    )
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(input.limit);
}

/** The language a user chose (en, th); null when they chose none or there is no such user. */
export async function userLanguage(executor: Executor, userId: string): Promise<string | null> {
  const [row] = await executor.select({ language: users.language }).from(users).where(eq(users.id, userId));
  return row?.language ?? null;
}
