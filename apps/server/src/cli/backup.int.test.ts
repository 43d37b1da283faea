// careplane backup / restore end to end on the embedded database: a server with the demo data (users, their
// authenticator store, signed documents), refused while it runs; backed up once stopped; restored into a new
// DATA_DIR; the restored server signs in the demo admin through the command-line authenticator, serves the
// signed document byte for byte, and its verifier calls the signature authentic (the platform CA and the
// encryption key that seals it came back). Damaged, foreign and newer-format files and non-empty targets are
// refused, and leave the target as it was.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { eq, isNotNull } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import { loadConfig } from '@/config.js';
import { documentFiles, documents } from '@/db/schema/index.js';
import { readStore } from '@/lib/authenticator-store.js';
import { startServer } from '@/server.js';
import { freePort } from '@/test/auth-server.js';
import { BACKUP_FORMAT_VERSION, readBackupArchive, writeBackupArchive } from './backup-archive.js';
import type { CliIo } from './io.js';
import { run } from './main.js';

let folder: string;
let baseUrl: string;
let env: (dataDir: string) => NodeJS.ProcessEnv;
const backup = () => path.join(folder, 'careplane.backup');
const original = () => path.join(folder, 'original');
const restored = () => path.join(folder, 'restored');
const signed: { id: string; title: string; bytes: Uint8Array; caPem: string } = {
  id: '',
  title: '',
  bytes: new Uint8Array(),
  caPem: '',
};

async function careplane(dataDir: string, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (line) => out.push(line), err: (line) => err.push(line) };
  const code = await run(argv, { io, env: env(dataDir), client: { pollIntervalMs: 100 } });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

const listing = (dataDir: string) =>
  readdirSync(dataDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return `${path.relative(dataDir, file)} ${statSync(file).size}`;
    })
    .sort();

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'careplane-backup-'));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  env = (dataDir) => ({
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DEMO_DATA: '1',
    AUTH_POLL_INTERVAL: '1',
    LOG_LEVEL: 'silent',
  });

  const server = await startServer(loadConfig(env(original())), { logger: false, print: () => {} });
  try {
    const refused = await careplane(original(), 'backup', backup());
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('is in use by the Careplane server');
    expect(refused.stderr).toContain('stop the server, run careplane backup, start it again');

    const { db } = server.database;
    const [document] = await db
      .select({ id: documents.id, title: documents.title, sha256: documents.signedSha256 })
      .from(documents)
      .where(isNotNull(documents.signedSha256))
      .limit(1);
    expect(document?.sha256).toBeTruthy();
    const [file] = await db
      .select({ bytes: documentFiles.bytes })
      .from(documentFiles)
      .where(eq(documentFiles.sha256, document!.sha256!));
    Object.assign(signed, { id: document!.id, title: document!.title, bytes: file!.bytes });
    signed.caPem = (await server.app.inject({ method: 'GET', url: '/api/documents/ca.pem' })).body;
    expect(signed.caPem).toContain('BEGIN CERTIFICATE');
  } finally {
    await server.close();
  }
}, 180_000);

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('careplane backup and restore (embedded database)', () => {
  it('backs up a stopped server into one archive with a manifest and the encryption key', async () => {
    const made = await careplane(original(), 'backup', backup());
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain(`to ${backup()}`);
    expect(statSync(backup()).mode & 0o777).toBe(0o600);
    const { manifest, files } = readBackupArchive(readFileSync(backup()));
    expect(manifest).toMatchObject({
      format: 'careplane-backup',
      formatVersion: BACKUP_FORMAT_VERSION,
      appVersion: '0.3.0',
      database: { kind: 'pglite' },
      encryptionKey: { origin: 'generated' },
    });
    expect([...files.keys()].sort()).toEqual(
      ['demo-authenticator.json', 'encryption.key', 'manifest.json', 'pgdata.tar'].sort(),
    );
    expect(files.get('encryption.key')!.equals(readFileSync(path.join(original(), 'encryption.key')))).toBe(
      true,
    );
    // A second backup does not replace the file without --force.
    expect((await careplane(original(), 'backup', backup())).code).toBe(4);
  }, 120_000);

  it('restores into a new DATA_DIR; the server on it signs in and its documents still verify', async () => {
    const done = await careplane(restored(), 'restore', backup());
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`into ${restored()}`);
    expect(readFileSync(path.join(restored(), 'encryption.key'))).toEqual(
      readFileSync(path.join(original(), 'encryption.key')),
    );
    expect(readdirSync(folder).filter((name) => name.startsWith('.'))).toEqual([]);

    const server = await startServer(loadConfig(env(restored())), { logger: false, print: () => {} });
    try {
      // Sign in as the demo admin: the console's CIBA request, approved by the restored authenticator store.
      const store = path.join(restored(), 'demo-authenticator.json');
      const admin = readStore(store).identities.find((entry) => entry.username.startsWith('admin@'))!;
      const oidc = await client.discovery(
        new URL(`${baseUrl}/auth`),
        CONSOLE_CLIENT_ID,
        undefined,
        client.None(),
        { execute: [client.allowInsecureRequests] },
      );
      const started = await client.initiateBackchannelAuthentication(oidc, {
        scope: 'openid',
        login_hint: admin.username,
        binding_message: 'BACK 1',
      });
      const approved = await careplane(
        restored(),
        'authenticator',
        'approve',
        '--store',
        store,
        '--username',
        admin.username,
        '--code',
        'BACK 1',
        '--wait',
        '20',
      );
      expect(approved.code, approved.stderr).toBe(0);
      const tokens = await client.pollBackchannelAuthenticationGrant(oidc, started);
      const bearer = { authorization: `Bearer ${tokens.access_token}` };
      const signIn = await fetch(`${baseUrl}/api/auth`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ idToken: tokens.id_token }),
      });
      expect(signIn.status).toBe(200);
      expect(((await signIn.json()) as { username: string }).username).toBe(admin.username);

      const document = await fetch(`${baseUrl}/api/documents/${signed.id}`, { headers: bearer });
      expect(document.status).toBe(200);
      expect(((await document.json()) as { title: string }).title).toBe(signed.title);
      const download = await fetch(`${baseUrl}/api/documents/${signed.id}/download/signed`, {
        headers: bearer,
      });
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(signed.bytes))).toBe(true);

      // The same CA (its key is sealed with the restored encryption key), and the signature is authentic.
      expect(await (await fetch(`${baseUrl}/api/documents/ca.pem`)).text()).toBe(signed.caPem);
      const form = new FormData();
      form.append('file', new Blob([signed.bytes], { type: 'application/pdf' }), 'signed.pdf');
      const verified = await fetch(`${baseUrl}/api/documents/verify`, { method: 'POST', body: form });
      expect(verified.status).toBe(200);
      const report = (await verified.json()) as {
        fileKnownToPlatform: boolean;
        verdict: { status: string };
        signatures: { intact: boolean }[];
      };
      expect(report.verdict.status).toBe('authentic');
      expect(report.fileKnownToPlatform).toBe(true);
      expect(report.signatures.length).toBeGreaterThan(0);
      expect(report.signatures.every((signature) => signature.intact)).toBe(true);
    } finally {
      await server.close();
    }
  }, 180_000);

  it('refuses a damaged, a truncated, a foreign and a newer-format file, and leaves the target alone', async () => {
    const target = path.join(folder, 'untouched');
    mkdirSync(target);
    writeFileSync(path.join(target, 'keep.txt'), 'mine');
    const before = listing(target);
    const bytes = readFileSync(backup());

    const flipped = Buffer.from(bytes);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    const truncated = bytes.subarray(0, Math.floor(bytes.length / 2));
    const { manifest, files } = readBackupArchive(bytes);
    const newer = writeBackupArchive(
      { ...manifest, formatVersion: BACKUP_FORMAT_VERSION + 1 },
      [...files]
        .filter(([name]) => name !== 'manifest.json')
        .map(([name, content]) => ({ name, bytes: content })),
    );
    const cases: [string, Buffer, RegExp][] = [
      ['flipped', flipped, /damaged|differs from its checksum/],
      ['truncated', truncated, /damaged or truncated|truncated/],
      ['foreign.pdf', Buffer.from(signed.bytes), /not a Careplane backup \(not a gzip/],
      ['foreign.gz', gzipSync(Buffer.from('{"hello": "world"}')), /not a Careplane backup/],
      ['newer', newer, /backup format 2, newer than this Careplane reads \(1\)/],
    ];
    for (const [name, content, message] of cases) {
      const file = path.join(folder, name);
      writeFileSync(file, content);
      const answer = await careplane(target, 'restore', file, '--force');
      expect(answer.code, `${name}: ${answer.stderr}`).toBe(3);
      expect(answer.stderr, name).toMatch(message);
      expect(answer.stderr).toMatch(/^Refusing to restore /);
      expect(listing(target)).toEqual(before);
    }
    expect(readdirSync(folder).filter((name) => name.startsWith('.'))).toEqual([]);
  }, 60_000);

  it('refuses a non-empty target without --force, and replaces it whole with --force', async () => {
    const target = path.join(folder, 'occupied');
    mkdirSync(target);
    writeFileSync(path.join(target, 'keep.txt'), 'mine');
    const refused = await careplane(target, 'restore', backup());
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(`Refusing to restore into ${target} (DATA_DIR): it is not empty`);
    expect(readFileSync(path.join(target, 'keep.txt'), 'utf8')).toBe('mine');

    const forced = await careplane(target, 'restore', backup(), '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(readdirSync(target).sort()).toEqual(['demo-authenticator.json', 'encryption.key', 'pgdata']);
    expect(readdirSync(folder).filter((name) => name.startsWith('.'))).toEqual([]);
  }, 120_000);

  it('on PostgreSQL prints the pg_dump and pg_restore commands and exits 2', async () => {
    const out: string[] = [];
    const io: CliIo = { out: (line) => out.push(line), err: (line) => out.push(line) };
    const postgres = { DATABASE_URL: 'postgres://careplane@127.0.0.1:1/careplane' };
    expect(await run(['backup', backup()], { io, env: postgres })).toBe(2);
    expect(out.join('\n')).toContain('pg_dump --format=custom');
    expect(await run(['restore', backup()], { io, env: postgres })).toBe(2);
    expect(out.join('\n')).toContain('pg_restore --no-owner --clean --if-exists');
  });
});
