// A process asked to stop with SIGTERM (an orchestrator, a supervisor, `docker stop`) first drains for
// SHUTDOWN_DRAIN_SECONDS: readiness answers 503 `closing` while every other request is still answered, so a
// load balancer that polls readiness takes it out before its port closes; then it exits 0 (decision 075). The
// real launcher, as an operator runs it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@/test/auth-server.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/careplane.mjs');
const dataDir = mkdtempSync(path.join(tmpdir(), 'careplane-drain-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('a process asked to stop', () => {
  it('says it is closing while it still answers, for SHUTDOWN_DRAIN_SECONDS, then exits 0', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [bin, 'start'], {
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: dataDir,
        PORT: String(port),
        DEMO_DATA: '0',
        LOG_LEVEL: 'info',
        SHUTDOWN_DRAIN_SECONDS: '3',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const get = async (route: string) => {
      const answer = await fetch(`http://127.0.0.1:${port}${route}`);
      return { status: answer.status, body: (await answer.json()) as { status: string } };
    };
    try {
      await expect
        .poll(
          () =>
            get('/api/health/ready').then(
              (answer) => answer.status,
              () => 0,
            ),
          {
            timeout: 60_000,
            interval: 200,
          },
        )
        .toBe(200);

      child.kill('SIGTERM');
      await expect
        .poll(() => get('/api/health/ready').then((answer) => answer.body.status), { interval: 50 })
        .toBe('closing');
      // Still serving: the port closes only after the drain.
      const ready = await get('/api/health/ready');
      expect(ready.status).toBe(503);
      expect((await get('/api/health/live')).status).toBe(200);
      expect(await exited).toBe(0);
      expect(log).toContain('"drainSeconds":3');
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);
});
