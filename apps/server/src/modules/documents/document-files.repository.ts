// The SQL of stored files: one row per SHA-256, shared by identical uploads and by every signed revision,
// read whole for signing or in slices for downloads, deleted once no document points at it (decision 023).
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client.js';
import { documentFiles, documents, documentUploadChunks } from '@/db/schema/index.js';

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
// Uploads on their way in (decision 037): slices staged under an upload id, joined into a file by the database

export async function insertUploadChunk(
  executor: Executor,
  chunk: { uploadId: string; index: number; bytes: Uint8Array },
) {
  await executor.insert(documentUploadChunks).values(chunk);
}

/**
 * `length` bytes of a staged upload from `offset`, where every slice but the last holds `chunkBytes`; at most
 * two slices are read.
 */
export async function readUploadSlice(
  executor: Executor,
  uploadId: string,
  chunkBytes: number,
  offset: number,
  length: number,
): Promise<Buffer> {
  const first = Math.floor(offset / chunkBytes);
  const last = Math.floor((offset + length - 1) / chunkBytes);
  const rows = await executor
    .select({
      index: documentUploadChunks.index,
      part: sql<Uint8Array>`substring(${documentUploadChunks.bytes} from greatest(1, ${offset + 1} - ${documentUploadChunks.index} * ${chunkBytes}) for ${length})`,
    })
    .from(documentUploadChunks)
    .where(
      and(
        eq(documentUploadChunks.uploadId, uploadId),
        sql`${documentUploadChunks.index} between ${first} and ${last}`,
      ),
    )
    .orderBy(asc(documentUploadChunks.index));
  return Buffer.concat(rows.map((row) => row.part)).subarray(0, length);
}

/**
 * The staged slices joined into the stored file, inside the database (the server never holds the whole file);
 * takes the row lock of an identical stored file, as `upsertFile` does. Answers false, storing nothing, when
 * the staged slices do not add up to `size` (some were swept away: the upload must be sent again).
 */
export async function storeUpload(
  executor: Executor,
  upload: { uploadId: string; sha256: string; size: number },
): Promise<boolean> {
  // Both drivers answer { rows }; the result type of execute() is driver-generic.
  const result: unknown = await executor.execute(sql`
    insert into ${documentFiles} (sha256, size, bytes)
    select ${upload.sha256}, ${upload.size}, string_agg(bytes, ''::bytea order by index)
    from ${documentUploadChunks} where upload_id = ${upload.uploadId}
    having coalesce(sum(octet_length(bytes)), 0) = ${upload.size}
    on conflict (sha256) do update set size = excluded.size
    returning sha256`);
  return (result as { rows: unknown[] }).rows.length === 1;
}

export async function deleteUpload(executor: Executor, uploadId: string) {
  await executor.delete(documentUploadChunks).where(eq(documentUploadChunks.uploadId, uploadId));
}

/** Deletes the slices of uploads begun before `before` that never finished (a crash, a lost process). */
export async function deleteStaleUploads(executor: Executor, before: Date): Promise<number> {
  const deleted = await executor
    .delete(documentUploadChunks)
    .where(lt(documentUploadChunks.createdAt, before))
    .returning({ uploadId: documentUploadChunks.uploadId });
  return new Set(deleted.map((row) => row.uploadId)).size;
}
