import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBoxError, createSecretBox, parseEncryptionKey } from './secret-box.js';

describe('the secret box', () => {
  const key = randomBytes(32);
  const box = createSecretBox(key);

  it('seals so that only the same key and purpose open it', () => {
    const sealed = box.seal('{"d":"private"}', 'auth-signing-key:k1');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('private');
    expect(box.open(sealed, 'auth-signing-key:k1')).toBe('{"d":"private"}');
    // Each seal is fresh: the same text never seals to the same value.
    expect(box.seal('{"d":"private"}', 'auth-signing-key:k1')).not.toBe(sealed);
    expect(() => box.open(sealed, 'auth-signing-key:k2')).toThrow(SecretBoxError);
    expect(() => createSecretBox(randomBytes(32)).open(sealed, 'auth-signing-key:k1')).toThrow(
      SecretBoxError,
    );
  });

  it('refuses a changed or malformed value', () => {
    const sealed = box.seal('text', 'p');
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    bytes[bytes.length - 1]! ^= 1;
    expect(() => box.open(`v1.${bytes.toString('base64url')}`, 'p')).toThrow(SecretBoxError);
    for (const bad of ['', 'v1.', 'v2.abcd', 'v1.abc', 'plain text']) {
      expect(() => box.open(bad, 'p')).toThrow(SecretBoxError);
    }
  });

  it('reads keys written as hex or base64, and refuses other lengths', () => {
    expect(parseEncryptionKey(key.toString('hex'))).toEqual(key);
    expect(parseEncryptionKey(key.toString('base64'))).toEqual(key);
    expect(parseEncryptionKey(`${key.toString('base64url')}\n`)).toEqual(key);
    expect(() => parseEncryptionKey(randomBytes(16).toString('hex'))).toThrow(SecretBoxError);
    expect(() => createSecretBox(randomBytes(16))).toThrow(SecretBoxError);
  });
});
