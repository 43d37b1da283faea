// A start that fails for a reason an operator can put right (a setting, the database, a port) says so in one
// sentence naming what to fix and exits 1, without a stack: the real launcher, as an operator runs it.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@/test/auth-server.js';
import { SecretBoxError } from '@/lib/secret-box.js';
import { startupFailureMessage } from './startup-failure.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/careplane.mjs');
const dataDir = mkdtempSync(path.join(tmpdir(), 'careplane-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs `careplane start` with only these settings; resolves with its exit code and what it printed. */
function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, 'start'],
      {
        env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_DATA: '0', ...env },
        timeout: 60_000,
      },
      (error, _stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stderr }),
    );
  });
}

const noStack = (stderr: string) => expect(stderr).not.toMatch(/^\s+at /m);

describe('a start that cannot succeed', () => {
  it('names a setting that does not parse', async () => {
    const answer = await start({ PORT: 'abc', DATABASE_URL: 'mysql://db.example/careplane' });
    expect(answer.code).toBe(1);
    expect(answer.stderr).toContain('PORT:');
    expect(answer.stderr).toContain(
      'DATABASE_URL: Must be a PostgreSQL address: postgres://user:password@host:5432/database',
    );
    noStack(answer.stderr);
  }, 60_000);

  it('says a database does not exist, without its password', async () => {
    const name = `careplane_missing_${randomUUID().slice(0, 8)}`;
    const answer = await start({
      DATABASE_URL: `postgres://postgres:secret@127.0.0.1:5432/${name}`,
      PORT: String(await freePort()),
    });
    expect(answer.code).toBe(1);
    expect(answer.stderr).toContain(
      `The database at DATABASE_URL postgres://postgres:***@127.0.0.1:5432/${name} cannot be opened:`,
    );
    expect(answer.stderr).toContain('create it first');
    expect(answer.stderr).not.toContain('secret');
    noStack(answer.stderr);
  }, 60_000);

  it('says nothing answers at a closed port', async () => {
    const answer = await start({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/careplane`,
      PORT: String(await freePort()),
    });
    expect(answer.code).toBe(1);
    expect(answer.stderr).toContain('nothing answers there');
    expect(answer.stderr).toContain('is PostgreSQL running, on that host and port?\n');
    noStack(answer.stderr);
  }, 60_000);

  it('says a port is in use', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    const other = net.createServer();
    const error = await new Promise<Error>((resolve) => {
      other.once('error', resolve);
      other.listen(port, '127.0.0.1');
    });
    taken.close();
    expect(startupFailureMessage(error, port)).toBe(
      `Port ${port} is in use by another process: stop it, or start with another PORT.`,
    );
    const key = new SecretBoxError(
      'The encryption key must be 32 bytes, written as 64 hex or 43 base64 characters',
    );
    expect(startupFailureMessage(key)).toBe(key.message);
    // A fault that is no operator's to put right keeps its stack.
    expect(startupFailureMessage(new TypeError('undefined is not a function'))).toBeUndefined();
  });
});
