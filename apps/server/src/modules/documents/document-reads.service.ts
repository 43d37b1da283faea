// Reading documents: one, a page of the caller's list (own, shared with them, waiting for their signature),
// and the names offered when sharing. Each document is shown with its parties' states and the caller's rights.
import type { ListResponse } from '@careplane/shared/common/http';
import {
  MAX_PARTY_SUGGESTIONS,
  type Document,
  type PartySuggestions,
} from '@careplane/shared/documents/documents.contract';
import type { Caller } from '@/lib/caller.js';
import type { Store } from '@/lib/store.js';
import {
  displayName,
  normalizeEntry,
  userOf,
  visibility,
  visibleDocument,
  type DocumentUser,
} from './document-access.js';
import {
  listDocuments,
  partiesOf,
  searchUserNames,
  userNames,
  type DocumentPage,
  type DocumentRecord,
} from './documents.repository.js';

export function createDocumentReads({ store }: { store: Store }) {
  const db = store.db;

  async function toDocuments(records: DocumentRecord[], caller: DocumentUser): Promise<Document[]> {
    const parties = await partiesOf(
      db,
      records.map((record) => record.id),
    );
    const ownerIds = [
      ...new Set(records.map((record) => record.createdByUserId).filter((id) => id !== null)),
    ];
    const owners = new Map((await userNames(db, ownerIds)).map((user) => [user.id, displayName(user)]));
    return records.map((record) => {
      const metadata = record.signingPartiesMetadata.map(normalizeEntry);
      const signedAt = new Map(metadata.map((entry) => [entry.userId, entry.signedAt]));
      const own = parties.filter((party) => party.documentId === record.id);
      const isOwner = record.createdByUserId === caller.userId;
      const isParty = own.some((party) => party.userId === caller.userId);
      const hasSigned = signedAt.has(caller.userId);
      const hasFile = record.originalSha256 !== null;
      return {
        id: record.id,
        title: record.title,
        createdAt: record.createdAt.toISOString(),
        updatedAt: record.updatedAt.toISOString(),
        file:
          record.originalSha256 && record.originalSize !== null
            ? { sha256: record.originalSha256, size: record.originalSize }
            : null,
        signedFile:
          record.signedSha256 && record.signedSize !== null
            ? { sha256: record.signedSha256, size: record.signedSize }
            : null,
        owner: record.createdByUserId
          ? { id: record.createdByUserId, name: owners.get(record.createdByUserId) ?? 'Unknown user' }
          : null,
        createdByUserId: record.createdByUserId,
        isSigned: record.isSigned,
        parties: own.map((party) => ({
          userId: party.userId,
          name: displayName(party),
          state: signedAt.has(party.userId) ? ('signed' as const) : ('pending' as const),
          signedAt: signedAt.get(party.userId) ?? null,
        })),
        signingPartiesMetadata: metadata,
        access: {
          role: isOwner ? 'owner' : isParty ? 'party' : 'admin',
          canSign: (isOwner || isParty) && hasFile && !hasSigned,
          canShare: isOwner || caller.isAdmin,
          canDelete: isOwner || caller.isAdmin,
          hasSigned,
        },
      };
    });
  }

  async function read(id: string, caller: Caller | null): Promise<Document> {
    const user = userOf(caller);
    const [document] = await toDocuments([await visibleDocument(store, id, user)], user);
    return document!;
  }

  async function list(page: DocumentPage, caller: Caller | null): Promise<ListResponse<Document>> {
    const user = userOf(caller);
    const { rows, total } = await listDocuments(db, page, user.userId, visibility(user));
    return { items: await toDocuments(rows, user), total, limit: page.limit, offset: page.offset };
  }

  async function suggestParties(
    search: string | undefined,
    caller: Caller | null,
  ): Promise<PartySuggestions> {
    const user = userOf(caller);
    const found = await searchUserNames(db, { search, excludeId: user.userId, limit: MAX_PARTY_SUGGESTIONS });
    return { items: found.map((row) => ({ id: row.id, name: displayName(row) })) };
  }

  return { read, list, suggestParties };
}

/** How the other parts show a document to its caller after they changed it. */
export type ReadDocument = ReturnType<typeof createDocumentReads>['read'];
