// The SQL of stored files: one row per SHA-256, shared by identical uploads and by every signed revision,
// read whole for signing or in slices for downloads, deleted once no document points at it (decision 023).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client.js';
import { documentFiles, documents } from '@/db/schema/index.js';

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
