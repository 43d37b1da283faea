// The device agent (apps/agent) as a real child process against this server on a port: it enrolls, its
// stats arrive, a job is fetched once, runs and its result is stored; what it produces while the server
// cannot be reached is delivered once it can; a restart does not run a job again. Every wait below is
// for an event: a committed change (the change feed), a file in the agent's state, a process exit.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { closeSync, constants, openSync, watch } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceStats } from '@/db/schema/index.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { createDevice } from '@/test/factories.js';
import { auditRows } from '@/test/records.js';

const AGENT = fileURLToPath(new URL('../../../../agent/bin/careplane-agent.mjs', import.meta.url));

let context: TestContext;
let serverUrl: string;
let workDir: string;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  context = await createTestContext();
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  serverUrl = `http://127.0.0.1:${(context.app.server.address() as AddressInfo).port}`;
  workDir = await mkdtemp(join(tmpdir(), 'careplane-agent-it-'));
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await context?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

type Job = { id: string; status: string; results: Record<string, unknown>[] };

/** Runs the agent's command to its end (enroll). */
function agentCommand(args: string[]) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [AGENT, ...args], {
      env: { ...process.env, CAREPLANE_AGENT_SOURCES: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Starts `careplane-agent run`; `exited` settles when it ends. */
function startAgent(state: string) {
  const child = spawn(
    process.execPath,
    [AGENT, 'run', '--state', state, '--poll-wait', '5', '--retry', '0.2'],
    {
      env: { ...process.env, CAREPLANE_AGENT_SOURCES: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return { child, exited, output: () => output };
}

async function enroll(deviceToken: string, server: string, extra: string[] = []) {
  const state = await mkdtemp(join(workDir, 'state-'));
  const enrolled = await agentCommand([
    'enroll',
    '--server',
    server,
    '--token',
    deviceToken,
    '--state',
    state,
    '--stats-interval',
    '3600',
    ...extra,
  ]);
  expect(enrolled.code, enrolled.output).toBe(0);
  return state;
}

/** Resolves once `check` holds, looking again after every committed change. */
function whenChanged(check: () => Promise<boolean>) {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    let running = false;
    let again = false;
    const attempt = async (): Promise<void> => {
      if (settled) return;
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        if (await check()) {
          settled = true;
          unsubscribe();
          resolve();
        }
      } catch (error) {
        settled = true;
        unsubscribe();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
      running = false;
      if (again) {
        again = false;
        return attempt();
      }
    };
    const unsubscribe = context.app.changes.subscribe(() => attempt());
    void attempt();
  });
}

/** Resolves once `check` holds, looking again whenever something in `dir` changes. */
function whenFiles(dir: string, check: () => Promise<boolean>) {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const watcher = watch(dir, () => void attempt());
    const attempt = async () => {
      if (settled) return;
      try {
        if (await check()) {
          settled = true;
          watcher.close();
          resolve();
        }
      } catch (error) {
        // A file read while it is being replaced: the next event looks again.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && !(error instanceof SyntaxError)) {
          settled = true;
          watcher.close();
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      }
    };
    void attempt();
  });
}

const readJob = async (id: string) => (await api(context).get(`/api/devices/jobs/${id}`)).json<Job>();
const jobIs = (id: string, status: string) => whenChanged(async () => (await readJob(id)).status === status);

async function createJob(deviceId: string, commands: string[]) {
  const response = await api(context).post('/api/devices/jobs', {
    purpose: 'Agent test',
    commands,
    device: deviceId,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Job>();
}

const handOuts = async (jobId: string) =>
  (await auditRows(context, 'device-jobs', jobId)).filter((row) => row.action === 'hand-out').length;

/** Ends whatever reads the FIFO with an end of stream; when nothing reads it, there is nothing to end. */
function releaseGate(path: string) {
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
  }
}

function fifo(name: string) {
  const path = join(workDir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

describe('careplane-agent', () => {
  it('refuses to enroll with a token the server does not know, and stores nothing', async () => {
    const state = join(workDir, 'refused');
    const refused = await agentCommand([
      'enroll',
      '--server',
      serverUrl,
      '--token',
      `cpd_${'A'.repeat(43)}`,
      '--state',
      state,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('401');
    await expect(readFile(join(state, 'config.json'))).rejects.toThrow();
    expect((await agentCommand(['enroll', '--token', 'x'])).code).toBe(2);
    // A command may not outlast the job's lease.
    const tooLong = await agentCommand([
      'enroll',
      '--server',
      serverUrl,
      '--token',
      'x',
      '--command-timeout',
      '3600',
    ]);
    expect(tooLong.code).toBe(2);
    expect(tooLong.output).toContain('--command-timeout must be a positive number up to 600');
  });

  it('posts its stats and runs a job fetched once, storing its results', async () => {
    const device = await createDevice(context, { title: 'Agent terminal' });
    const state = await enroll(device.token, serverUrl);
    const config = JSON.parse(await readFile(join(state, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ deviceId: device.id, deviceTitle: 'Agent terminal', allowShell: false });

    const agent = startAgent(state);
    await whenChanged(
      async () => (await context.database.db.$count(deviceStats, eq(deviceStats.deviceId, device.id))) > 0,
    );
    const stats = await api(context).get(`/api/devices/${device.id}/last-stats-submission`);
    expect(stats.json()).toMatchObject({ deviceId: device.id });
    expect(stats.json().software.system[0]).toMatchObject({ name: 'careplane-agent' });
    expect(stats.json().firmware.length).toBeGreaterThan(0);

    const job = await createJob(device.id, ['notify Your nurse arrives at 10:00', 'collect-logs', 'reboot']);
    await jobIs(job.id, 'SUCCEEDED');
    const done = await readJob(job.id);
    expect(done.results).toHaveLength(3);
    expect(done.results.map((result) => result.exitCode)).toEqual([0, 0, 0]);
    expect(done.results[0]).toMatchObject({ command: 'notify Your nurse arrives at 10:00' });
    expect(done.results[2]!.stdout).toContain('simulated');
    expect(await handOuts(job.id)).toBe(1);
    expect(await readFile(join(state, 'notifications.log'), 'utf8')).toContain('Your nurse arrives at 10:00');

    // A command outside the vocabulary fails without running: this agent does not allow shell commands.
    const shell = await createJob(device.id, [`touch ${join(state, 'should-not-exist')}`]);
    await jobIs(shell.id, 'FAILED');
    expect((await readJob(shell.id)).results[0]).toMatchObject({ exitCode: 127 });
    await expect(readFile(join(state, 'should-not-exist'))).rejects.toThrow();

    // restart-agent: reported first, then the agent exits 75 for its supervisor to start it again.
    const restart = await createJob(device.id, ['restart-agent']);
    await jobIs(restart.id, 'SUCCEEDED');
    expect(await agent.exited).toBe(75);
  });

  it('keeps what it produces while the server cannot be reached and delivers it when it can', async () => {
    // The agent talks to the server through a relay that the test can cut and restore.
    const sockets = new Set<Socket>();
    const target = Number(new URL(serverUrl).port);
    const openRelay = (port = 0) =>
      new Promise<Server>((resolve) => {
        const relay = createServer((client) => {
          const upstream = connect(target, '127.0.0.1');
          for (const socket of [client, upstream]) {
            sockets.add(socket);
            socket.on('close', () => sockets.delete(socket));
            socket.on('error', () => socket.destroy());
          }
          client.pipe(upstream).pipe(client);
        });
        relay.listen(port, '127.0.0.1', () => resolve(relay));
      });
    let relay = await openRelay();
    const relayPort = (relay.address() as AddressInfo).port;

    const device = await createDevice(context, { title: 'Sometimes offline' });
    const state = await enroll(device.token, `http://127.0.0.1:${relayPort}`, ['--allow-shell']);
    const agent = startAgent(state);
    const gate = fifo('offline-gate');
    const job = await createJob(device.id, [`cat ${gate}`]);
    await jobIs(job.id, 'RUNNING');

    // Cut: the job finishes while the server cannot be reached.
    await new Promise<void>((resolve) => {
      relay.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
    await writeFile(gate, 'finished offline\n');
    const outbox = join(state, 'outbox');
    await whenFiles(outbox, async () => {
      for (const name of await readdir(outbox)) {
        if (!name.endsWith('-report.json')) continue;
        const item = JSON.parse(await readFile(join(outbox, name), 'utf8'));
        if (item.body.status === 'SUCCEEDED') return true;
      }
      return false;
    });
    expect((await readJob(job.id)).status).toBe('RUNNING');

    // Back: the queued report arrives.
    relay = await openRelay(relayPort);
    await jobIs(job.id, 'SUCCEEDED');
    expect((await readJob(job.id)).results[0]).toMatchObject({ exitCode: 0, stdout: 'finished offline\n' });
    expect(await handOuts(job.id)).toBe(1);

    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(0);
    await new Promise<void>((resolve) => {
      relay.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  });

  it('does not run a job again after it was killed while running it', async () => {
    const device = await createDevice(context, { title: 'Crashy' });
    const state = await enroll(device.token, serverUrl, ['--allow-shell']);
    const counter = join(workDir, 'runs.txt');
    const gate = fifo('restart-gate');
    const first = startAgent(state);
    // The gate's reader ends by itself too: when the agent is killed before its shell has opened the gate, the
    // release below finds no reader, and a plain `cat` would stay blocked after the test, an orphan.
    const blocked = `timeout 60 cat ${gate}`;
    const job = await createJob(device.id, [`echo ran >> ${counter}`, blocked]);
    // The first command has finished and the second is running (the journal holds one result).
    await whenFiles(state, async () => {
      const journal = JSON.parse(await readFile(join(state, 'job.json'), 'utf8'));
      return journal.jobId === job.id && journal.results.length === 1;
    });
    first.child.kill('SIGKILL');
    await first.exited;
    // The killed agent's `cat` outlives it, blocked on the gate: opening and closing the other end ends it.
    releaseGate(gate);

    const second = startAgent(state);
    await jobIs(job.id, 'FAILED');
    const failed = await readJob(job.id);
    expect(failed.results).toHaveLength(2);
    expect(failed.results[0]).toMatchObject({ exitCode: 0 });
    expect(failed.results[1]).toMatchObject({ command: blocked, exitCode: null });
    expect(failed.results[1]!.stderr).toContain('not run again');
    expect(await readFile(counter, 'utf8')).toBe('ran\n');
    expect(await handOuts(job.id)).toBe(1);

    // And the restarted agent goes on with the next job.
    const next = await createJob(device.id, ['notify back again']);
    await jobIs(next.id, 'SUCCEEDED');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
