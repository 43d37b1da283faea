// Private keys at rest (decision 022): sealed with AES-256-GCM under the server's encryption key, each sealed
// value bound to its purpose (the purpose is authenticated, so a value sealed for one use opens for no other).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export interface SecretBox {
  seal(plain: string, purpose: string): string;
  /** Throws SecretBoxError when the value was sealed with another key, for another purpose, or changed. */
  open(sealed: string, purpose: string): string;
  /**
   * A secret of its own for one purpose (a passphrase another format needs), derived from the key with HKDF:
   * the same key gives the same secret, and no secret tells anything about the key or the others.
   */
  derive(purpose: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new SecretBoxError('The encryption key must be 32 bytes');
  return {
    seal(plain, purpose) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(purpose, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    derive(purpose) {
      return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `careplane:${purpose}`, 32)).toString(
        'base64url',
      );
    },
    open(sealed, purpose) {
      const [version, encoded] = sealed.split('.');
      if (version !== VERSION || !encoded) throw new SecretBoxError('Not a sealed value');
      const bytes = Buffer.from(encoded, 'base64url');
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('Not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(purpose, 'utf8'));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([
          decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SecretBoxError('The value does not open with this encryption key');
      }
    },
  };
}

/** Reads a key written as 64 hex characters or as base64/base64url of 32 bytes. */
export function parseEncryptionKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed, 'base64url');
  if (key.length !== 32) {
    throw new SecretBoxError(
      'The encryption key must be 32 bytes, written as 64 hex or 43 base64 characters',
    );
  }
  return key;
}
