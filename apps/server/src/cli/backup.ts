// `careplane backup <file>` and `careplane restore <file>` for the embedded database (decision 039): the
// PGlite data folder (dumped by PGlite itself) and what the server needs beside it in DATA_DIR, the
// generated encryption key that seals the signing keys in the database and the demo authenticator store, in
// one archive with a manifest. A running server holds the database: backup refuses then (stop it first).
// Restore checks the whole file first, builds the new folder beside the target and renames it into place,
// so a failure leaves the target as it was. On PostgreSQL (DATABASE_URL) both print the pg_dump/pg_restore
// commands of docs/operations.md instead.
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { AppConfig } from '@/config.js';
import { EmbeddedDatabaseBusy, embeddedDatabaseOwner, lockEmbeddedDatabase } from '@/db/embedded-lock.js';
import { GENERATED_KEY_FILE } from '@/encryption-key.js';
import { DEMO_STORE_FILE } from '@/dev/demo-sign-in.js';
import { parseEncryptionKey } from '@/lib/secret-box.js';
import { serverRoot } from '@/locations.js';
import {
  BACKUP_FORMAT_VERSION,
  BackupFileError,
  readBackupArchive,
  writeBackupArchive,
  type BackupManifest,
} from './backup-archive.js';
import { CliError, type CliIo } from './io.js';

/** Exit codes a script can tell apart (1 stays for wrong arguments and configuration). */
export const BACKUP_EXIT = {
  /** DATABASE_URL is set: use pg_dump / pg_restore (the commands are printed). */
  postgres: 2,
  /** The file is not a backup this Careplane can restore: damaged, foreign or of a newer format. */
  badFile: 3,
  /** The target is in use, not empty (without --force), or the source is in use or missing. */
  refused: 4,
} as const;

const DATABASE_FILE = 'pgdata.tar';
const PGDATA = 'pgdata';
/** Files of DATA_DIR beside the database that a backup carries when they exist. */
const SIDE_FILES = [GENERATED_KEY_FILE, DEMO_STORE_FILE];

export const postgresInstructions = (action: 'backup' | 'restore') =>
  [
    `careplane ${action} works on the embedded database; DATABASE_URL is set, so the data is in PostgreSQL.`,
    "Use PostgreSQL's own tools (docs/operations.md), with a pg_dump of the server's major version or newer:",
    action === 'backup'
      ? '  pg_dump --format=custom --no-owner --file careplane.dump "$DATABASE_URL"'
      : '  pg_restore --no-owner --clean --if-exists --exit-on-error --dbname "$DATABASE_URL" careplane.dump',
    'and keep the encryption key with it: ENCRYPTION_KEY / ENCRYPTION_KEY_FILE from your secret store, or',
    `the generated ${path.join('$DATA_DIR', GENERATED_KEY_FILE)}; the signing keys in the database are sealed with it.`,
  ].join('\n');

const fingerprint = (key: Buffer) =>
  createHash('sha256').update('careplane encryption key\0').update(key).digest('hex').slice(0, 16);

/** The configured key (environment or file), if any; the generated one lives in the data folder. */
function configuredKey(config: AppConfig): { origin: 'environment' | 'file'; key: Buffer } | undefined {
  if (config.encryption.key) return { origin: 'environment', key: parseEncryptionKey(config.encryption.key) };
  if (config.encryption.keyFile) {
    let text: string;
    try {
      text = readFileSync(config.encryption.keyFile, 'utf8');
    } catch (error) {
      throw new CliError(
        `ENCRYPTION_KEY_FILE: cannot read ${config.encryption.keyFile} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    return { origin: 'file', key: parseEncryptionKey(text) };
  }
  return undefined;
}

function appVersion(): string {
  try {
    return String(
      (JSON.parse(readFileSync(path.join(serverRoot, 'package.json'), 'utf8')) as { version?: string })
        .version,
    );
  } catch {
    return 'unknown';
  }
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function backupCommand(
  options: { file: string; force: boolean },
  io: CliIo,
  config: AppConfig,
): Promise<number> {
  if (config.databaseUrl) {
    io.err(postgresInstructions('backup'));
    return BACKUP_EXIT.postgres;
  }
  const { dataDir } = config;
  if (!existsSync(path.join(dataDir, PGDATA))) {
    throw new CliError(
      `No embedded database in ${dataDir} (DATA_DIR): nothing to back up`,
      BACKUP_EXIT.refused,
    );
  }
  if (existsSync(options.file) && !options.force) {
    throw new CliError(
      `${options.file} exists: give another file, or --force to replace it`,
      BACKUP_EXIT.refused,
    );
  }
  let lock: { release: () => void };
  try {
    lock = lockEmbeddedDatabase(dataDir, 'careplane backup');
  } catch (error) {
    if (error instanceof EmbeddedDatabaseBusy) {
      throw new CliError(
        `${error.message}\nA backup is taken of a stopped server only (decision 039): stop the server, run ` +
          'careplane backup, start it again.',
        BACKUP_EXIT.refused,
      );
    }
    throw error;
  }
  try {
    const configured = configuredKey(config);
    const keyFile = path.join(dataDir, GENERATED_KEY_FILE);
    let key: { origin: 'generated' | 'environment' | 'file'; key: Buffer };
    if (configured) key = configured;
    else if (existsSync(keyFile))
      key = { origin: 'generated', key: parseEncryptionKey(readFileSync(keyFile, 'utf8')) };
    else {
      throw new CliError(
        `No encryption key: neither ENCRYPTION_KEY / ENCRYPTION_KEY_FILE nor ${keyFile}. Without it the signing ` +
          'keys in the database cannot be opened, so a backup would not restore a working server.',
        BACKUP_EXIT.refused,
      );
    }

    // PGlite's own dump of its data folder, taken after a checkpoint with no other process on it.
    const database = await PGlite.create({ dataDir: path.join(dataDir, PGDATA), extensions: { pg_trgm } });
    let dump: Uint8Array;
    let serverVersion: string;
    try {
      const version = await database.query<{ server_version: string }>('show server_version');
      serverVersion = version.rows[0]?.server_version ?? 'unknown';
      dump = new Uint8Array(await (await database.dumpDataDir('none')).arrayBuffer());
    } finally {
      await database.close();
    }

    const files = [{ name: DATABASE_FILE, bytes: dump }];
    for (const name of SIDE_FILES) {
      // A key from the environment or a file is the operator's to keep; a generated key goes with the data.
      if (name === GENERATED_KEY_FILE && key.origin !== 'generated') continue;
      const file = path.join(dataDir, name);
      if (existsSync(file)) files.push({ name, bytes: readFileSync(file) });
    }
    const manifest: Omit<BackupManifest, 'files'> = {
      format: 'careplane-backup',
      formatVersion: BACKUP_FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      appVersion: appVersion(),
      database: { kind: 'pglite', serverVersion },
      encryptionKey: { origin: key.origin, fingerprint: fingerprint(key.key) },
      documentsCaPassphrase: config.documents.caPassphrase.source,
    };
    const archive = writeBackupArchive(manifest, files);
    // Written beside its name and renamed: a file with the name is always a whole backup.
    const partial = `${options.file}.partial-${process.pid}`;
    try {
      writeFileSync(partial, archive, { mode: 0o600 });
      renameSync(partial, options.file);
    } finally {
      rmSync(partial, { force: true });
    }
    io.out(
      `Backed up the embedded database in ${dataDir} to ${options.file} (${megabytes(archive.length)}).`,
    );
    if (key.origin === 'generated') {
      io.out(
        'It holds the encryption key that seals the signing keys: keep it as secret as that key (mode 0600).',
      );
    } else {
      io.out(
        `The encryption key (from ${key.origin === 'environment' ? 'ENCRYPTION_KEY' : 'ENCRYPTION_KEY_FILE'}) is ` +
          'NOT in the backup: a restore needs the same key configured.',
      );
    }
    if (config.documents.caPassphrase.source !== 'encryption-key') {
      io.out(
        'The documents CA passphrase (DOCUMENTS_CA_PASSPHRASE or its file) is not in the backup either: keep it.',
      );
    }
    return 0;
  } finally {
    lock.release();
  }
}

const isEmptyFolder = (folder: string) => !existsSync(folder) || readdirSync(folder).length === 0;

export async function restoreCommand(
  options: { file: string; force: boolean },
  io: CliIo,
  config: AppConfig,
): Promise<number> {
  if (config.databaseUrl) {
    io.err(postgresInstructions('restore'));
    return BACKUP_EXIT.postgres;
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(options.file);
  } catch (error) {
    throw new CliError(`Cannot read ${options.file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let archive: ReturnType<typeof readBackupArchive>;
  try {
    archive = readBackupArchive(bytes);
  } catch (error) {
    if (error instanceof BackupFileError) {
      throw new CliError(`Refusing to restore ${options.file}: ${error.message}.`, BACKUP_EXIT.badFile);
    }
    throw error;
  }
  const { manifest, files } = archive;
  const target = config.dataDir;

  const owner = embeddedDatabaseOwner(target);
  if (owner) {
    throw new CliError(
      `Refusing to restore into ${target}: it is in use by ${owner.purpose} (process ${owner.pid}). Stop it first.`,
      BACKUP_EXIT.refused,
    );
  }
  if (!isEmptyFolder(target) && !options.force) {
    throw new CliError(
      `Refusing to restore into ${target} (DATA_DIR): it is not empty. Give an empty or new DATA_DIR, or ` +
        '--force to replace what is there.',
      BACKUP_EXIT.refused,
    );
  }
  // The key that will open the restored signing keys must be the one they were sealed with.
  const configured = configuredKey(config);
  if (manifest.encryptionKey.origin === 'generated') {
    if (configured && fingerprint(configured.key) !== manifest.encryptionKey.fingerprint) {
      throw new CliError(
        `Refusing to restore: the backup carries its generated encryption key, but ${configured.origin === 'environment' ? 'ENCRYPTION_KEY' : 'ENCRYPTION_KEY_FILE'} ` +
          'is set to another key, which would win and could not open the restored signing keys. Unset it.',
        BACKUP_EXIT.refused,
      );
    }
  } else if (!configured || fingerprint(configured.key) !== manifest.encryptionKey.fingerprint) {
    throw new CliError(
      `Refusing to restore: the backup's signing keys are sealed with a key kept outside it (${manifest.encryptionKey.origin === 'environment' ? 'ENCRYPTION_KEY' : 'ENCRYPTION_KEY_FILE'}, ` +
        `fingerprint ${manifest.encryptionKey.fingerprint}); ${configured ? 'the key configured now is another one' : 'configure that key first'}.`,
      BACKUP_EXIT.refused,
    );
  }

  // Built beside the target (same file system, so the rename is atomic) and renamed into place at the end.
  const parent = path.dirname(target);
  const staging = mkdtempSync(path.join(parent, `.${path.basename(target)}.restoring-`));
  let replaced: string | undefined;
  try {
    for (const name of SIDE_FILES) {
      const content = files.get(name);
      if (content) writeFileSync(path.join(staging, name), content, { mode: 0o600 });
    }
    const dump = files.get(DATABASE_FILE);
    if (!dump)
      throw new CliError(`Refusing to restore ${options.file}: it holds no database.`, BACKUP_EXIT.badFile);
    const database = await PGlite.create({
      dataDir: path.join(staging, PGDATA),
      loadDataDir: new Blob([dump]),
      extensions: { pg_trgm },
    });
    try {
      // The restored database opens and has the schema's migrations (the server applies newer ones at start).
      const applied = await database.query<{ count: number }>(
        'select count(*)::int as count from drizzle.__drizzle_migrations',
      );
      if (!applied.rows[0]?.count) throw new Error('no migrations recorded');
    } catch (error) {
      throw new CliError(
        `Refusing to restore ${options.file}: its database does not open as a Careplane database (${(error as Error).message}).`,
        BACKUP_EXIT.badFile,
      );
    } finally {
      await database.close();
    }
    chmodSync(staging, 0o700);
    if (existsSync(target)) {
      replaced = mkdtempSync(path.join(parent, `.${path.basename(target)}.replaced-`));
      rmSync(replaced, { recursive: true });
      renameSync(target, replaced);
    }
    try {
      renameSync(staging, target);
    } catch (error) {
      if (replaced) renameSync(replaced, target);
      replaced = undefined;
      throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
    if (replaced) rmSync(replaced, { recursive: true, force: true });
  }
  io.out(
    `Restored ${options.file} (made ${manifest.createdAt} by Careplane ${manifest.appVersion}) into ${target}.`,
  );
  if (manifest.encryptionKey.origin !== 'generated') {
    io.out('The encryption key was not in the backup: the key configured now matches it.');
  }
  if (manifest.documentsCaPassphrase !== 'encryption-key') {
    io.out(
      `The documents CA passphrase came from ${manifest.documentsCaPassphrase === 'environment' ? 'DOCUMENTS_CA_PASSPHRASE' : 'DOCUMENTS_CA_PASSPHRASE_FILE'}: configure the same one.`,
    );
  }
  return 0;
}
