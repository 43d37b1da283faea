// Sharing a document (its parties: who is asked to sign) and deleting it: the owner's or an admin's to do.
import type { DocumentShare, Document } from '@careplane/shared/documents/documents.contract';
import type { ActionContext } from '@/lib/audit.js';
import { badRequest, forbidden, notFound, serviceTexts } from '@/lib/errors.js';
import type { Store } from '@/lib/store.js';
import { blockedUserIds, missingUserIds } from '@/modules/users/users.service.js';
import {
  isFullySigned,
  normalizeEntry,
  optionalText,
  RESOURCE,
  userOf,
  visibleDocument,
} from './document-access.js';
import type { ReadDocument } from './document-reads.service.js';
import { deleteUnreferencedFiles } from './document-files.repository.js';
import {
  deleteDocument,
  lockDocument,
  partyIdsOf,
  replaceParties,
  updateDocument,
} from './documents.repository.js';

export function createDocumentSharing({ store, read }: { store: Store; read: ReadDocument }) {
  const db = store.db;

  async function share(id: string, body: DocumentShare, context: ActionContext): Promise<Document> {
    const user = userOf(context.caller);
    const record = await visibleDocument(store, id, user);
    if (record.createdByUserId !== user.userId && !user.isAdmin) {
      throw forbidden(serviceTexts.ownerSharesOnly);
    }
    const wanted = [...new Set(body.userIds)];
    const missing = await missingUserIds(db, wanted);
    if (missing.length) {
      throw badRequest(serviceTexts.unknownUsers, [
        { path: 'body.userIds', message: `No user with id ${missing.join(', ')}` },
      ]);
    }
    // A blocked user cannot sign in, so could never sign: none is newly asked. One asked before being blocked
    // stays a party, so the owner can still change the rest of the list.
    const current = new Set(await partyIdsOf(db, id));
    const blocked = await blockedUserIds(
      db,
      wanted.filter((userId) => !current.has(userId)),
    );
    if (blocked.length) {
      throw badRequest(serviceTexts.blockedSigners, [
        { path: 'body.userIds', message: `User ${blocked.join(', ')} is blocked` },
      ]);
    }
    await store.write(context, async (scope) => {
      const document = await lockDocument(scope.tx, id);
      if (!document) throw notFound('Document');
      const metadata = document.signingPartiesMetadata.map(normalizeEntry);
      // A party who signed stays one: their signature is in the file whatever the list says.
      const signed = new Set(metadata.map((entry) => entry.userId));
      const kept = (await partyIdsOf(scope.tx, id)).filter((partyId) => signed.has(partyId));
      const parties = [...new Set([...wanted, ...kept])];
      await replaceParties(scope.tx, id, parties);
      await updateDocument(scope.tx, id, { isSigned: isFullySigned(metadata, parties) });
      await scope.audit({
        action: 'share',
        resource: RESOURCE,
        recordId: id,
        changes: { signingParties: parties },
      });
    });
    return read(id, context.caller);
  }

  async function remove(id: string, context: ActionContext): Promise<void> {
    const user = userOf(context.caller);
    const record = await visibleDocument(store, id, user);
    if (record.createdByUserId !== user.userId && !user.isAdmin) {
      throw forbidden(serviceTexts.ownerDeletesOnly);
    }
    await store.write(context, async (scope) => {
      const document = await lockDocument(scope.tx, id);
      if (!document) throw notFound('Document');
      const revisions = document.signingPartiesMetadata
        .map((entry) => optionalText(entry.revisionSha256))
        .filter((sha) => sha !== undefined);
      await deleteDocument(scope.tx, id);
      await deleteUnreferencedFiles(
        scope.tx,
        [document.originalSha256, document.signedSha256, ...revisions].filter((sha) => sha !== null),
      );
      await scope.audit({ action: 'delete', resource: RESOURCE, recordId: id });
    });
  }

  return { share, remove };
}
