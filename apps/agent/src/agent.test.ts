// The agent's parts on their own: its stats satisfy the server's contract, its bounds agree with it, and its
// commands end in bounded results without running what they may not.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_JOB_COMMAND_LENGTH as CONTRACT_COMMAND_LENGTH,
  MAX_JOB_OUTPUT as CONTRACT_OUTPUT,
  MAX_JOB_WAIT_SECONDS as CONTRACT_WAIT,
  PING_HOST as CONTRACT_PING_HOST,
  deviceStatSubmissionSchema,
  jobResultSchema,
  jobVocabulary,
} from '@careplane/shared/devices/devices.contract';
import { bound, runCommand, type CommandSettings } from './commands.ts';
import {
  MAX_JOB_COMMAND_LENGTH,
  MAX_JOB_OUTPUT,
  MAX_JOB_WAIT_SECONDS,
  PING_HOST,
  VOCABULARY,
} from './limits.ts';
import { AgentState, MAX_QUEUED_STATS } from './state.ts';
import { collectStats } from './stats.ts';

let dir: string;
let settings: CommandSettings;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'careplane-agent-'));
  settings = {
    stateDir: dir,
    allowShell: false,
    allowReboot: false,
    timeoutMs: 10_000,
    logFile: join(dir, 'agent.log'),
  };
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('bounds', () => {
  it('agree with the server contract', () => {
    expect(MAX_JOB_OUTPUT).toBe(CONTRACT_OUTPUT);
    expect(MAX_JOB_COMMAND_LENGTH).toBe(CONTRACT_COMMAND_LENGTH);
    expect(MAX_JOB_WAIT_SECONDS).toBe(CONTRACT_WAIT);
    expect([...VOCABULARY]).toEqual([...jobVocabulary]);
    // The hosts a job may be submitted with are the ones the agent pings.
    expect(PING_HOST.source).toBe(CONTRACT_PING_HOST.source);
  });

  it('cuts long output to the bound and says so', () => {
    const cut = bound('x'.repeat(MAX_JOB_OUTPUT * 3));
    expect(cut).toHaveLength(MAX_JOB_OUTPUT);
    expect(cut.endsWith('[… output truncated]')).toBe(true);
    expect(bound('short')).toBe('short');
  });
});

describe('stats', () => {
  it('are read from this machine in the structure the server accepts', async () => {
    const stats = await collectStats();
    const parsed = deviceStatSubmissionSchema.safeParse(stats);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(stats.hardware.memory.total).toBeGreaterThan(0);
    expect(stats.software.system[0]).toMatchObject({ name: 'careplane-agent' });
  });
});

describe('commands', () => {
  const run = (command: string, overrides: Partial<CommandSettings> = {}) =>
    runCommand(command, { ...settings, ...overrides });

  it('notify writes the text where the device shows it', async () => {
    const { result } = await run('notify Take your evening medication');
    const outcome = await run('notify Take your evening medication');
    expect(outcome.show).toBe('Take your evening medication');
    expect(result).toMatchObject({ exitCode: 0, stdout: 'Notified: Take your evening medication\n' });
    expect(jobResultSchema.safeParse(result).success).toBe(true);
    expect(await readFile(join(dir, 'notifications.log'), 'utf8')).toContain('Take your evening medication');
    expect((await run('notify')).result.exitCode).toBe(2);
  });

  it('reboot is simulated unless the agent was enrolled to allow it', async () => {
    const simulated = await run('reboot');
    expect(simulated.result.exitCode).toBe(0);
    expect(simulated.result.stdout).toContain('simulated');
    expect(simulated.after).toBeUndefined();
    expect((await run('reboot', { allowReboot: true })).after).toBe('reboot');
  });

  it('restart-agent asks for a restart once the job is reported', async () => {
    expect((await run('restart-agent')).after).toBe('restart-agent');
  });

  it('collect-logs answers the agent and its log', async () => {
    const { result } = await run('collect-logs');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('careplane-agent');
  });

  it('ping refuses what is not a host, so nothing reaches ping as an option', async () => {
    for (const host of ['-f', 'a b', '$(reboot)', '']) {
      const { result } = await run(`ping ${host}`);
      expect(result.exitCode, host).toBe(2);
    }
  });

  it('runs no shell command unless allowed, and then with its exit code and bounded output', async () => {
    const refused = await run('touch should-not-exist');
    expect(refused.result).toMatchObject({ exitCode: 127 });
    expect(refused.result.stderr).toContain('not allowed');
    const allowed = await run(`printf '%09000d' 0; echo oops >&2; exit 3`, { allowShell: true });
    expect(allowed.result).toMatchObject({ exitCode: 3, stderr: 'oops\n' });
    expect(allowed.result.stdout).toHaveLength(MAX_JOB_OUTPUT);
    expect(jobResultSchema.safeParse(allowed.result).success).toBe(true);
  });

  it('stops a command at its timeout', async () => {
    const { result } = await run('exec sleep 30', { allowShell: true, timeoutMs: 200 });
    expect(result.exitCode).toBeNull();
    expect(result.stderr).toContain('Stopped after');
  });
});

describe('outbox', () => {
  it('keeps items in order and only the newest stats beyond its bound', async () => {
    const state = new AgentState(join(dir, 'outbox-test'));
    await state.init();
    await state.enqueue({ kind: 'report', jobId: 'a', body: { status: 'RUNNING' } });
    for (let index = 0; index < MAX_QUEUED_STATS + 3; index++) {
      await state.enqueue({ kind: 'stats', body: { index } });
    }
    const pending = await state.pending();
    expect(pending).toHaveLength(MAX_QUEUED_STATS + 1);
    expect(await state.readItem(pending[0]!)).toMatchObject({ kind: 'report', jobId: 'a' });
    expect(await state.readItem(pending[1]!)).toMatchObject({ body: { index: 3 } });
  });
});
