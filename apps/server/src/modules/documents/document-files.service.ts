// A document's files: the upload (a PDF by its content, stored by SHA-256), downloads streamed from the
// database in slices, and the generated documents of other modules' workflows (prescription receipts).
import { Readable } from 'node:stream';
import {
  downloadFileName,
  MAX_DOCUMENT_TITLE,
  type Document,
} from '@careplane/shared/documents/documents.contract';
import { isReadablePdf } from '@careplane/pdf-signatures';
import type { ActionContext } from '@/lib/audit.js';
import type { Caller } from '@/lib/caller.js';
import { AppError, badRequest, notFound } from '@/lib/errors.js';
import type { Store, WriteScope } from '@/lib/store.js';
import { normalizeEntry, RESOURCE, sha256Hex, userOf, visibleDocument } from './document-access.js';
import type { ReadDocument } from './document-reads.service.js';
import { deleteUnreferencedFiles, readFileSlice, upsertFile } from './document-files.repository.js';
import { deleteDocument, findDocument, insertDocument, lockDocument } from './documents.repository.js';

/** A download reads the file from the database in slices of this size. */
export const DOWNLOAD_CHUNK_BYTES = 1024 * 1024;

/** A file as the upload route received it. */
export interface UploadedFile {
  bytes: Uint8Array;
  filename: string | undefined;
  title: string | undefined;
}

export interface FileDownload {
  filename: string;
  size: number;
  sha256: string;
  stream: Readable;
}

const unsupportedMediaType = (message: string) => new AppError(415, message);

/**
 * A PDF by its content, never by its name: `%PDF-` within the first 1024 bytes and a structure the signing
 * core's reader follows to a catalog (the same reader that signs it later).
 */
export function assertPdf(bytes: Uint8Array): void {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024));
  if (head.indexOf('%PDF-') < 0) throw unsupportedMediaType('The file is not a PDF');
  if (!isReadablePdf(bytes)) throw unsupportedMediaType('The file is not a readable PDF');
}

/** The title of an upload: the given one, else the file's name without its extension. */
function titleOf(upload: UploadedFile): string {
  const given = upload.title?.trim();
  if (given) return given;
  const fromName = upload.filename
    ?.replace(/\.pdf$/i, '')
    .replace(/\p{Cc}/gu, '')
    .trim();
  return (fromName || 'Document').slice(0, MAX_DOCUMENT_TITLE);
}

export function createDocumentFiles({ store, read }: { store: Store; read: ReadDocument }) {
  const db = store.db;

  async function upload(upload: UploadedFile, context: ActionContext): Promise<Document> {
    const user = userOf(context.caller);
    if (upload.bytes.length === 0) throw badRequest('The file is empty');
    assertPdf(upload.bytes);
    const title = titleOf(upload);
    const sha256 = sha256Hex(upload.bytes);
    const id = await store.write(context, async (scope) => {
      await upsertFile(scope.tx, { sha256, size: upload.bytes.length, bytes: upload.bytes });
      const documentId = await insertDocument(scope.tx, {
        title,
        isSigned: false,
        originalSha256: sha256,
        createdByUserId: user.userId,
      });
      await scope.audit({
        action: 'create',
        resource: RESOURCE,
        recordId: documentId,
        changes: { title, sha256, size: upload.bytes.length },
      });
      return documentId;
    });
    return read(id, context.caller);
  }

  /** The file read from the database in slices, so a large file is never held whole here. */
  function fileStream(sha256: string, size: number): Readable {
    async function* slices() {
      for (let offset = 0; offset < size; offset += DOWNLOAD_CHUNK_BYTES) {
        const chunk = await readFileSlice(db, sha256, offset, Math.min(DOWNLOAD_CHUNK_BYTES, size - offset));
        if (!chunk?.length) throw new Error('The file was removed during the download');
        yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
      }
    }
    return Readable.from(slices(), { objectMode: false });
  }

  async function download(
    id: string,
    which: 'original' | 'signed',
    caller: Caller | null,
  ): Promise<FileDownload> {
    const user = userOf(caller);
    const record = await visibleDocument(store, id, user);
    if (which === 'signed') {
      if (!record.signedSha256 || record.signedSize === null)
        throw notFound('Signed version of the document');
      const last = record.signingPartiesMetadata.map(normalizeEntry).at(-1);
      return {
        filename: downloadFileName(last?.signedAt ?? record.updatedAt),
        size: record.signedSize,
        sha256: record.signedSha256,
        stream: fileStream(record.signedSha256, record.signedSize),
      };
    }
    if (!record.originalSha256 || record.originalSize === null) throw notFound('File of the document');
    return {
      filename: downloadFileName(record.createdAt),
      size: record.originalSize,
      sha256: record.originalSha256,
      stream: fileStream(record.originalSha256, record.originalSize),
    };
  }

  // -------------------------------------------------------------------------------------------------------
  // For other modules: documents the platform generates and has signed in a workflow (prescription receipts)

  /** Stores a generated PDF as a document owned by `ownerUserId`, audited inside the caller's write. */
  async function createGenerated(
    scope: WriteScope,
    input: { title: string; bytes: Uint8Array; ownerUserId: string },
  ): Promise<string> {
    assertPdf(input.bytes);
    const sha256 = sha256Hex(input.bytes);
    await upsertFile(scope.tx, { sha256, size: input.bytes.length, bytes: input.bytes });
    const documentId = await insertDocument(scope.tx, {
      title: input.title.slice(0, MAX_DOCUMENT_TITLE),
      isSigned: false,
      originalSha256: sha256,
      createdByUserId: input.ownerUserId,
    });
    await scope.audit({
      action: 'create',
      resource: RESOURCE,
      recordId: documentId,
      changes: { title: input.title, sha256, size: input.bytes.length, generated: true },
    });
    return documentId;
  }

  /** Removes a generated document nobody was asked to sign after all (the phone could not be asked). */
  async function discardGenerated(documentId: string, context: ActionContext): Promise<void> {
    await store.write(context, async (scope) => {
      const document = await lockDocument(scope.tx, documentId);
      if (!document || document.signedSha256) return;
      await deleteDocument(scope.tx, documentId);
      await deleteUnreferencedFiles(
        scope.tx,
        [document.originalSha256].filter((sha) => sha !== null),
      );
      await scope.audit({ action: 'delete', resource: RESOURCE, recordId: documentId });
    });
  }

  /** The latest revision of a document's file: the signed one once anybody signed, else the original. */
  async function latestFile(documentId: string): Promise<FileDownload> {
    const record = await findDocument(db, documentId);
    const sha = record?.signedSha256 ?? record?.originalSha256;
    const size = record?.signedSha256 ? record.signedSize : record?.originalSize;
    if (!record || !sha || size === null || size === undefined) throw notFound('File of the document');
    const last = record.signingPartiesMetadata.map(normalizeEntry).at(-1);
    return {
      filename: downloadFileName(last?.signedAt ?? record.updatedAt),
      size,
      sha256: sha,
      stream: fileStream(sha, size),
    };
  }

  /** A document's latest signed revision; undefined while nobody signed it. */
  async function signedFile(documentId: string): Promise<FileDownload | undefined> {
    const record = await findDocument(db, documentId);
    return record?.signedSha256 ? latestFile(documentId) : undefined;
  }

  return { upload, download, createGenerated, discardGenerated, latestFile, signedFile };
}
