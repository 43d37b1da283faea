// The server's encryption key (decision 022), which seals private keys at rest: ENCRYPTION_KEY, else the file
// ENCRYPTION_KEY_FILE, else a key generated once under DATA_DIR for the embedded default. A generated key
// in production is loudly reported: whoever reads the data folder can then read the keys it protects.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '@/config.js';
import { parseEncryptionKey } from '@/lib/secret-box.js';

export const GENERATED_KEY_FILE = 'encryption.key';

export interface EncryptionKeySource {
  key: Buffer;
  /** Where it came from, for the start-up log (never the key itself). */
  origin: 'environment' | 'file' | 'generated';
  file?: string;
}

export function loadEncryptionKey(config: AppConfig): EncryptionKeySource {
  const { encryption, dataDir } = config;
  if (encryption.key) return { key: parseEncryptionKey(encryption.key), origin: 'environment' };
  if (encryption.keyFile) {
    return {
      key: parseEncryptionKey(readFileSync(encryption.keyFile, 'utf8')),
      origin: 'file',
      file: encryption.keyFile,
    };
  }
  const file = path.join(dataDir, GENERATED_KEY_FILE);
  if (existsSync(file))
    return { key: parseEncryptionKey(readFileSync(file, 'utf8')), origin: 'generated', file };
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  // Created exclusively: of two processes starting together one writes, the other reads it.
  try {
    writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { key: parseEncryptionKey(readFileSync(file, 'utf8')), origin: 'generated', file };
  }
  return { key, origin: 'generated', file };
}

/** What the server says at start about its key; a generated key in production is a loud warning. */
export function describeEncryptionKey(source: EncryptionKeySource, production: boolean) {
  if (source.origin !== 'generated')
    return { level: 'info' as const, message: `encryption key from ${source.origin}` };
  const message = `private keys are sealed with a key generated in ${source.file}`;
  return production
    ? {
        level: 'warn' as const,
        message:
          `${message}. IN PRODUCTION, set ENCRYPTION_KEY (or ENCRYPTION_KEY_FILE) from a secret store: whoever can ` +
          'read the data folder can read the key, and with it the signing keys in the database.',
      }
    : { level: 'info' as const, message };
}
