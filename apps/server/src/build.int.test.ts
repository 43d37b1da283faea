// The server's build (scripts/build.mjs, decision 017): plain JavaScript that runs with `node` alone, finds its
// migrations and the web builds, and loads oidc-provider without its runtime warning. Built into a folder of the
// test's own inside apps/server (so that node_modules resolves as from dist/), removed afterwards.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@/test/auth-server.js';
import { serverRoot } from '@/locations.js';

const outdir = path.join('node_modules', '.cache', `careplane-build-test-${randomUUID()}`);
const built = path.join(serverRoot, outdir);
const node = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  promisify(execFile)(process.execPath, args, {
    cwd: serverRoot,
    timeout: 60_000,
    env: { ...process.env, ...env },
  });

describe('the server build', () => {
  let buildOutput = '';
  beforeAll(async () => {
    buildOutput = (await node(['scripts/build.mjs', '--outdir', outdir])).stdout;
  }, 120_000);
  afterAll(() => {
    rmSync(built, { recursive: true, force: true });
  });

  it('writes the entries and the migrations, with every npm package left to node_modules', () => {
    expect(buildOutput).toMatch(
      /server built in .*careplane-build-test-.*: main\.js, careplane\.js, seed\.js, pglite-thread\.js/,
    );
    for (const file of [
      'main.js',
      'careplane.js',
      'seed.js',
      'pglite-thread.js',
      'db/migrations/meta/_journal.json',
    ]) {
      expect(existsSync(path.join(built, file)), file).toBe(true);
    }
  });

  it('runs the careplane command with node alone', async () => {
    const { stdout, stderr } = await node([path.join(built, 'careplane.js'), '--help']);
    expect(stdout).toMatch(/^Usage: careplane <command>/);
    expect(stderr).not.toContain('Unsupported runtime');
  });

  it('refuses to build outside apps/server', async () => {
    await expect(node(['scripts/build.mjs', '--outdir', '../elsewhere'])).rejects.toMatchObject({ code: 2 });
  });

  describe('the built server', () => {
    let server: ChildProcess;
    let output = '';
    let baseUrl = '';
    const dataDir = mkdtempSync(path.join(tmpdir(), 'careplane-build-'));

    beforeAll(async () => {
      const port = await freePort();
      baseUrl = `http://127.0.0.1:${port}`;
      // Embedded database, whatever the environment names.
      const environment = Object.fromEntries(
        Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL'),
      );
      server = spawn(process.execPath, [path.join(built, 'main.js')], {
        cwd: serverRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...environment,
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: baseUrl,
          DATA_DIR: dataDir,
          DEMO_DATA: '0',
          LOG_LEVEL: 'warn',
        },
      });
      server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const started = Date.now();
      for (;;) {
        if (server.exitCode !== null) throw new Error(`the built server stopped:\n${output}`);
        try {
          if ((await fetch(`${baseUrl}/api/health`)).ok) break;
        } catch {
          // not listening yet
        }
        if (Date.now() - started > 60_000) throw new Error(`no answer from the built server:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }, 90_000);
    afterAll(async () => {
      if (server && server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('migrates its database and answers /api/health', async () => {
      const health = await fetch(`${baseUrl}/api/health`);
      expect(await health.json()).toMatchObject({ status: 'ok', database: 'pglite' });
    });

    it('serves the auth server, without the runtime warning of oidc-provider', async () => {
      const discovery = await fetch(`${baseUrl}/auth/.well-known/openid-configuration`);
      expect(discovery.status).toBe(200);
      expect(await discovery.json()).toMatchObject({ issuer: `${baseUrl}/auth` });
      expect(output).not.toContain('Unsupported runtime');
    });

    it('finds the console and the authenticator builds in apps/*/dist', async () => {
      for (const [app, url] of [
        ['web', '/'],
        ['authenticator', '/authenticator/'],
      ] as const) {
        const root = path.resolve(serverRoot, '..', app, 'dist');
        const page = await fetch(`${baseUrl}${url}`);
        if (existsSync(path.join(root, 'index.html'))) {
          expect(page.status, url).toBe(200);
          expect(page.headers.get('content-type'), url).toMatch(/^text\/html/);
        } else {
          // Not built here (Vitest runs before any build): the server names the folder it looked in.
          expect(page.status, url).toBe(404);
          expect(output).toContain(`(${root} has no index.html)`);
        }
      }
    });
  });
});
