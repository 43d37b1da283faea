import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '@/config.js';
import { GENERATED_KEY_FILE, describeEncryptionKey, loadEncryptionKey } from '@/encryption-key.js';

const folders: string[] = [];
const folder = () => {
  const made = mkdtempSync(path.join(tmpdir(), 'careplane-key-'));
  folders.push(made);
  return made;
};
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

describe('the encryption key', () => {
  it('comes from ENCRYPTION_KEY, then ENCRYPTION_KEY_FILE', () => {
    const key = randomBytes(32);
    const fromEnv = loadEncryptionKey(
      loadConfig({ ENCRYPTION_KEY: key.toString('hex'), DATA_DIR: folder() }),
    );
    expect(fromEnv).toMatchObject({ origin: 'environment' });
    expect(fromEnv.key).toEqual(key);
    const file = path.join(folder(), 'key');
    writeFileSync(file, key.toString('base64'));
    const fromFile = loadEncryptionKey(loadConfig({ ENCRYPTION_KEY_FILE: file, DATA_DIR: folder() }));
    expect(fromFile).toMatchObject({ origin: 'file', file });
    expect(fromFile.key).toEqual(key);
  });

  it('is generated once under DATA_DIR, readable by its owner only, and the same at the next start', () => {
    const dataDir = folder();
    const first = loadEncryptionKey(loadConfig({ DATA_DIR: dataDir }));
    const file = path.join(dataDir, GENERATED_KEY_FILE);
    expect(first).toMatchObject({ origin: 'generated', file });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.key.toString('hex'));
    expect(loadEncryptionKey(loadConfig({ DATA_DIR: dataDir })).key).toEqual(first.key);
  });

  it('warns loudly about a generated key in production only', () => {
    const generated = loadEncryptionKey(loadConfig({ DATA_DIR: folder() }));
    expect(describeEncryptionKey(generated, false).level).toBe('info');
    const production = describeEncryptionKey(generated, true);
    expect(production.level).toBe('warn');
    expect(production.message).toMatch(/IN PRODUCTION, set ENCRYPTION_KEY/);
    expect(() => loadConfig({ ENCRYPTION_KEY: 'short' })).toThrow(/ENCRYPTION_KEY/);
  });
});
