// Where the CA passphrase comes from: the environment, a file, or (by default) the server's encryption key.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecretBox } from '@/lib/secret-box.js';
import { CaPassphraseError, resolveCaPassphrase } from './platform-ca.js';

const secrets = createSecretBox(randomBytes(32));

const folders: string[] = [];
const folder = () => {
  const made = mkdtempSync(path.join(tmpdir(), 'careplane-ca-'));
  folders.push(made);
  return made;
};
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

describe('resolveCaPassphrase', () => {
  it('takes the configured value as it is', () => {
    const passphrase = resolveCaPassphrase({
      source: { source: 'environment', reveal: () => 'from the environment' },
      secrets,
    });
    expect(passphrase).toBe('from the environment');
  });

  it('reads a passphrase file without its final newline, and names a missing or short one', () => {
    const file = path.join(folder(), 'ca.pass');
    writeFileSync(file, 'a passphrase in a file\n');
    expect(resolveCaPassphrase({ source: { source: 'file', path: file }, secrets })).toBe(
      'a passphrase in a file',
    );
    writeFileSync(file, 'short\n');
    expect(() => resolveCaPassphrase({ source: { source: 'file', path: file }, secrets })).toThrow(
      CaPassphraseError,
    );
    expect(() =>
      resolveCaPassphrase({ source: { source: 'file', path: path.join(folder(), 'missing') }, secrets }),
    ).toThrow(/cannot read .*missing \(ENOENT\)/);
  });

  it('derives one from the encryption key by default: the same key, the same passphrase; another, another', () => {
    const first = resolveCaPassphrase({ source: { source: 'encryption-key' }, secrets });
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(resolveCaPassphrase({ source: { source: 'encryption-key' }, secrets })).toBe(first);
    const other = createSecretBox(randomBytes(32));
    expect(resolveCaPassphrase({ source: { source: 'encryption-key' }, secrets: other })).not.toBe(first);
    // Not the key itself, nor anything else derived from it.
    expect(secrets.derive('another-purpose')).not.toBe(first);
  });
});
