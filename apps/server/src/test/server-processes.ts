// Test support: real server processes (`careplane start` from the sources, under tsx), for tests of what
// several processes on one PostgreSQL database do together. Each waits for /api/health before it counts.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { serverRoot } from '@/locations.js';
import { freePort } from './auth-server.js';

export interface ServerProcess {
  name: string;
  part: 'all' | 'auth';
  port: number;
  baseUrl: string;
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output: () => string;
}

export interface StartOptions {
  /** Every part (default), or the auth server alone (`--only auth`). */
  part?: 'all' | 'auth';
  /** A port of its own (a restart keeps its predecessor's); a free one by default. */
  port?: number;
  /** Its environment; PORT is set from `port`. */
  env: NodeJS.ProcessEnv;
}

/** The test's environment without what would point a child at the developer's own database or port. */
export function inheritedEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !['DATABASE_URL', 'DATA_DIR', 'PORT'].includes(key)),
  );
}

export async function startServerProcess(name: string, options: StartOptions): Promise<ServerProcess> {
  const part = options.part ?? 'all';
  const port = options.port ?? (await freePort());
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/bin.ts', 'start', ...(part === 'auth' ? ['--only', 'auth'] : [])],
    { cwd: serverRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...options.env, PORT: String(port) } },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const started: ServerProcess = {
    name,
    part,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
  };
  // Not expect.poll: processes start in beforeAll too.
  for (const deadline = Date.now() + 90_000; ; await new Promise((resolve) => setTimeout(resolve, 200))) {
    if (child.exitCode !== null) throw new Error(`${name} exited:\n${output}`);
    const response = await fetch(`${started.baseUrl}/api/health`).catch(() => null);
    if (response?.status === 200) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not answer in time:\n${output}`);
    }
  }
  return started;
}

/** SIGKILL, and wait until it is gone. */
export async function killServerProcess(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = once(server.child, 'exit');
  server.child.kill('SIGKILL');
  await exited;
}
