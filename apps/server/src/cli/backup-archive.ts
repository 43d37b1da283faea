// The backup file of `careplane backup`: a gzip-compressed tar (ustar, regular files only) whose first entry
// is manifest.json (format, format version, when, which app version, and a SHA-256 per file), then the files.
// Reading checks all of it and names what is wrong: not a gzip, not a tar, not ours, a newer format, a file
// that differs from its checksum.
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';

export const BACKUP_FORMAT = 'careplane-backup';
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_FILE = 'manifest.json';

const BLOCK = 512;

export const backupManifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int().min(1),
  createdAt: z.string(),
  appVersion: z.string(),
  /** The embedded database's PostgreSQL version: its data folder format follows the major version. */
  database: z.object({ kind: z.literal('pglite'), serverVersion: z.string() }),
  /**
   * Where the encryption key that seals the private keys in the database came from when the backup was made:
   * `generated` (the file in DATA_DIR, included), or `environment` / `file` (kept outside, not included; the
   * fingerprint lets restore check that the configured key is the same one).
   */
  encryptionKey: z.object({
    origin: z.enum(['generated', 'environment', 'file']),
    fingerprint: z.string().regex(/^[0-9a-f]{16}$/),
  }),
  documentsCaPassphrase: z.enum(['encryption-key', 'environment', 'file']),
  files: z.array(z.object({ name: z.string(), size: z.number().int().min(0), sha256: z.string() })).max(100),
});
export type BackupManifest = z.infer<typeof backupManifestSchema>;

/** A backup file that cannot be restored, with the reason a person can act on. */
export class BackupFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupFileError';
  }
}

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function header(name: string, size: number, mtime: Date): Buffer {
  const block = Buffer.alloc(BLOCK);
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: name too long: ${name}`);
  const octal = (value: number, width: number) => value.toString(8).padStart(width - 1, '0') + '\0';
  block.write(name, 0, 100, 'utf8');
  block.write(octal(0o600, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write('0', 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii');
  return block;
}

/** The archive: the manifest (with each file's size and SHA-256 added) first, then the files, gzip'd. */
export function writeBackupArchive(
  manifest: Omit<BackupManifest, 'files'>,
  files: { name: string; bytes: Uint8Array }[],
  now = new Date(),
): Buffer {
  const full: BackupManifest = {
    ...manifest,
    files: files.map(({ name, bytes }) => ({ name, size: bytes.length, sha256: sha256Hex(bytes) })),
  };
  const entries = [
    { name: MANIFEST_FILE, bytes: Buffer.from(`${JSON.stringify(full, null, 2)}\n`) },
    ...files,
  ];
  const parts: Buffer[] = [];
  for (const { name, bytes } of entries) {
    parts.push(header(name, bytes.length, now), Buffer.from(bytes));
    const pad = (BLOCK - (bytes.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(parts));
}

function readTar(tar: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  if (tar.length < BLOCK || tar.toString('ascii', 257, 262) !== 'ustar') {
    throw new BackupFileError('it is not a Careplane backup (not a tar archive inside the gzip)');
  }
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const block = tar.subarray(offset, offset + BLOCK);
    if (block.every((byte) => byte === 0)) return files;
    let sum = 0;
    for (let index = 0; index < BLOCK; index++) sum += index >= 148 && index < 156 ? 32 : block[index]!;
    const stored = parseInt(block.toString('ascii', 148, 156).replace(/\0.*$/, '').trim(), 8);
    if (stored !== sum) throw new BackupFileError('its tar headers are damaged');
    const name = block.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    const size = parseInt(block.toString('ascii', 124, 136).replace(/\0.*$/, '').trim(), 8);
    const type = block.toString('ascii', 156, 157);
    if (!Number.isFinite(size) || size < 0) throw new BackupFileError('its tar headers are damaged');
    offset += BLOCK;
    if (offset + size > tar.length) throw new BackupFileError('it ends in the middle of a file (truncated)');
    if (type === '0' || type === '\0') files.set(name, tar.subarray(offset, offset + size));
    offset += Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new BackupFileError('it ends before the end of its archive (truncated)');
}

/** Reads and checks a backup file; throws BackupFileError saying what is wrong. */
export function readBackupArchive(bytes: Buffer): { manifest: BackupManifest; files: Map<string, Buffer> } {
  let tar: Buffer;
  try {
    tar = gunzipSync(bytes);
  } catch (error) {
    throw new BackupFileError(
      bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b
        ? `it is damaged or truncated (${(error as Error).message})`
        : 'it is not a Careplane backup (not a gzip-compressed archive)',
    );
  }
  const files = readTar(tar);
  const manifestBytes = files.get(MANIFEST_FILE);
  if (!manifestBytes) throw new BackupFileError('it is not a Careplane backup (no manifest.json)');
  let raw: unknown;
  try {
    raw = JSON.parse(manifestBytes.toString('utf8'));
  } catch {
    throw new BackupFileError('it is not a Careplane backup (its manifest.json is not JSON)');
  }
  const head = z.object({ format: z.string(), formatVersion: z.number() }).safeParse(raw);
  if (!head.success || head.data.format !== BACKUP_FORMAT) {
    throw new BackupFileError('it is not a Careplane backup (its manifest names another format)');
  }
  if (head.data.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupFileError(
      `it was written in backup format ${head.data.formatVersion}, newer than this Careplane reads ` +
        `(${BACKUP_FORMAT_VERSION}): restore it with the Careplane version that made it, or a newer one`,
    );
  }
  const parsed = backupManifestSchema.safeParse(raw);
  if (!parsed.success) throw new BackupFileError('its manifest is incomplete or damaged');
  const manifest = parsed.data;
  for (const entry of manifest.files) {
    const file = files.get(entry.name);
    if (!file) throw new BackupFileError(`it lacks ${entry.name}, which its manifest lists`);
    if (file.length !== entry.size || sha256Hex(file) !== entry.sha256) {
      throw new BackupFileError(`${entry.name} inside it differs from its checksum (damaged)`);
    }
  }
  return { manifest, files };
}
