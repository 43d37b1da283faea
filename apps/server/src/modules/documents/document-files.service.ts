// A document's files: the upload (streamed into the database in slices, checked as a PDF by its content,
// stored by SHA-256), downloads streamed from the database in slices, and the generated documents of other
// modules' workflows (prescription receipts).
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  downloadFileName,
  MAX_DOCUMENT_TITLE,
  type Document,
} from '@careplane/shared/documents/documents.contract';
import { isReadablePdf } from '@careplane/pdf-signatures';
import type { ActionContext } from '@/lib/audit.js';
import type { Caller } from '@/lib/caller.js';
import { AppError, badRequest, conflict, notFound, serviceTexts, type Text } from '@/lib/errors.js';
import type { Store, WriteScope } from '@/lib/store.js';
import { normalizeEntry, RESOURCE, sha256Hex, userOf, visibleDocument } from './document-access.js';
import type { ReadDocument } from './document-reads.service.js';
import {
  deleteStaleUploads,
  deleteUnreferencedFiles,
  deleteUpload,
  insertUploadChunk,
  readFileSlice,
  readUploadSlice,
  storeUpload,
  upsertFile,
} from './document-files.repository.js';
import { deleteDocument, findDocument, insertDocument, lockDocument } from './documents.repository.js';

/** A download reads the file from the database in slices of this size. */
export const DOWNLOAD_CHUNK_BYTES = 1024 * 1024;

/** An upload is written to the database in slices of this size while it arrives (decision 037). */
export const UPLOAD_CHUNK_BYTES = 1024 * 1024;

/** Slices of an upload begun longer ago than this that never finished are swept away. */
export const STALE_UPLOAD_MS = 60 * 60 * 1000;

/** Bytes kept of an upload's start and end, for the check that it is a PDF. */
const HEAD_BYTES = 1024;
const TAIL_BYTES = 2048;

/** An upload whose bytes are staged in the database: its size, SHA-256 and the ends the PDF check reads. */
export interface StagedUpload {
  uploadId: string;
  size: number;
  sha256: string;
  head: Buffer;
  tail: Buffer;
}

/** A file as the upload route received it: staged, with its name and the optional title. */
export interface UploadedFile {
  staged: StagedUpload;
  filename: string | undefined;
  title: string | undefined;
}

export interface FileDownload {
  filename: string;
  size: number;
  sha256: string;
  stream: Readable;
}

const unsupportedMediaType = (message: Text) => new AppError(415, message);

/**
 * A PDF by its content, never by its name: `%PDF-` within the first 1024 bytes and a structure the signing
 * core's reader follows to a catalog (the same reader that signs it later).
 */
export function assertPdf(bytes: Uint8Array): void {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024));
  if (head.indexOf('%PDF-') < 0) throw unsupportedMediaType(serviceTexts.notAPdf);
  if (!isReadablePdf(bytes)) throw unsupportedMediaType(serviceTexts.notAReadablePdf);
}

const notReadable = () => unsupportedMediaType(serviceTexts.notAReadablePdf);

/**
 * The PDF check of a streamed upload, in bounded memory: `%PDF-` within the first 1024 bytes, a trailer whose
 * last `startxref` is followed by `%%EOF`, and at that offset a cross-reference table (`xref`) or stream
 * (`N G obj`). The whole structure is read when a signature is asked, by the reader that signs it.
 */
async function assertStagedPdf(
  staged: StagedUpload,
  readAt: (offset: number, length: number) => Promise<Buffer>,
): Promise<void> {
  if (staged.head.indexOf('%PDF-') < 0) throw unsupportedMediaType(serviceTexts.notAPdf);
  const tail = staged.tail.toString('latin1');
  const at = tail.lastIndexOf('startxref');
  const trailer = at < 0 ? null : /^startxref\s+(\d{1,12})\s+%%EOF/.exec(tail.slice(at));
  const offset = trailer ? Number(trailer[1]) : NaN;
  if (!Number.isSafeInteger(offset) || offset >= staged.size) throw notReadable();
  const section = (await readAt(offset, Math.min(64, staged.size - offset))).toString('latin1');
  if (!/^\s*(xref\b|\d+\s+\d+\s+obj\b)/.test(section)) throw notReadable();
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
  /**
   * Staged slices are written one at a time across all uploads, so that the database's other work (the
   * embedded one does one thing at a time) never waits behind more than one slice.
   */
  let lastSliceWrite: Promise<unknown> = Promise.resolve();
  const writeSlice = (slice: { uploadId: string; index: number; bytes: Uint8Array }) => {
    const written = lastSliceWrite.then(() => insertUploadChunk(db, slice));
    lastSliceWrite = written.catch(() => undefined);
    return written;
  };

  /**
   * Writes an arriving file to the database a slice at a time while hashing it, so that it is never held whole
   * here and the database takes it in small steps (the embedded one answers other requests between them).
   * Reading the next bytes waits for each slice's write: a fast sender is slowed to the database's pace.
   * `tooLarge` says when the file passed the size limit; what was staged is removed on any failure.
   */
  async function stage(
    file: AsyncIterable<Uint8Array>,
    tooLarge: () => AppError | undefined,
  ): Promise<StagedUpload> {
    const uploadId = randomUUID();
    const hash = createHash('sha256');
    let head = Buffer.alloc(0);
    let tail = Buffer.alloc(0);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let size = 0;
    let index = 0;
    const write = (bytes: Buffer) => writeSlice({ uploadId, index: index++, bytes });
    try {
      for await (const piece of file) {
        const chunk = Buffer.from(piece.buffer, piece.byteOffset, piece.length);
        const refused = tooLarge();
        if (refused) throw refused;
        hash.update(chunk);
        size += chunk.length;
        if (head.length < HEAD_BYTES)
          head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
        tail = Buffer.from(
          chunk.length >= TAIL_BYTES
            ? chunk.subarray(-TAIL_BYTES)
            : Buffer.concat([tail, chunk]).subarray(-TAIL_BYTES),
        );
        pending.push(chunk);
        pendingBytes += chunk.length;
        while (pendingBytes >= UPLOAD_CHUNK_BYTES) {
          const joined = Buffer.concat(pending);
          await write(joined.subarray(0, UPLOAD_CHUNK_BYTES));
          const rest = joined.subarray(UPLOAD_CHUNK_BYTES);
          pending = rest.length ? [rest] : [];
          pendingBytes = rest.length;
        }
      }
      const refused = tooLarge();
      if (refused) throw refused;
      if (pendingBytes) await write(Buffer.concat(pending));
      return { uploadId, size, sha256: hash.digest('hex'), head, tail };
    } catch (error) {
      await discardStaged(uploadId);
      throw error;
    }
  }

  /** Removes what an upload staged (refused, interrupted, or already stored). */
  async function discardStaged(uploadId: string): Promise<void> {
    await deleteUpload(db, uploadId);
  }

  /** Removes uploads staged longer ago than `olderThanMs` that never finished; answers how many. */
  async function sweepStaleUploads(olderThanMs: number): Promise<number> {
    return deleteStaleUploads(db, new Date(Date.now() - olderThanMs));
  }

  async function upload(upload: UploadedFile, context: ActionContext): Promise<Document> {
    const user = userOf(context.caller);
    const { staged } = upload;
    let id: string;
    try {
      if (staged.size === 0) throw badRequest(serviceTexts.fileEmpty);
      await assertStagedPdf(staged, (offset, length) =>
        readUploadSlice(db, staged.uploadId, UPLOAD_CHUNK_BYTES, offset, length),
      );
      const title = titleOf(upload);
      const { sha256, size } = staged;
      id = await store.write(context, async (scope) => {
        if (!(await storeUpload(scope.tx, { uploadId: staged.uploadId, sha256, size }))) {
          throw conflict(serviceTexts.uploadTooSlow);
        }
        await deleteUpload(scope.tx, staged.uploadId);
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
          changes: { title, sha256, size },
        });
        return documentId;
      });
    } catch (error) {
      await discardStaged(staged.uploadId);
      throw error;
    }
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

  /** Removes a generated document and the files nothing else refers to, inside `scope`. */
  async function removeGenerated(scope: WriteScope, documentId: string, changes?: Record<string, unknown>) {
    const removed = await deleteDocument(scope.tx, documentId);
    if (!removed) return;
    await deleteUnreferencedFiles(
      scope.tx,
      [removed.originalSha256, removed.signedSha256].filter((sha) => sha !== null),
    );
    await scope.audit({
      action: 'delete',
      resource: RESOURCE,
      recordId: documentId,
      ...(changes ? { changes } : {}),
    });
  }

  /** Removes a generated document nobody was asked to sign after all (the phone could not be asked). */
  async function discardGenerated(documentId: string, context: ActionContext): Promise<void> {
    await store.write(context, async (scope) => {
      const document = await lockDocument(scope.tx, documentId);
      if (!document || document.signedSha256) return;
      await removeGenerated(scope, documentId);
    });
  }

  /**
   * Withdraws a generated document whose workflow ended without it, signed or not, inside the workflow's
   * transaction: the receipt of an action that did not happen (refused on the phone, expired, failed, or
   * another person was faster) is neither listed nor kept, so the platform never vouches for it.
   */
  async function withdrawGenerated(scope: WriteScope, documentId: string): Promise<void> {
    await removeGenerated(scope, documentId, { withdrawn: true });
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

  return {
    stage,
    discardStaged,
    sweepStaleUploads,
    upload,
    download,
    createGenerated,
    discardGenerated,
    withdrawGenerated,
    latestFile,
    signedFile,
  };
}
