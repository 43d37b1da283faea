// The careplane-agent command as a device runs it (bin/careplane-agent.mjs, from the sources): help on stdout
// with exit code 0, a wrong command line on stderr with exit code 2, and no stack trace either way.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const AGENT = fileURLToPath(new URL('../bin/careplane-agent.mjs', import.meta.url));

function agent(...args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [AGENT, ...args], {
      env: { ...process.env, CAREPLANE_AGENT_SOURCES: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('careplane-agent', () => {
  it('answers simulate-iot --help with its usage, and the agent --help with its commands', async () => {
    const [command, top] = await Promise.all([agent('simulate-iot', '--help'), agent('--help')]);
    expect(command).toMatchObject({ code: 0, stderr: '' });
    expect(command.stdout).toMatch(/^Usage: careplane-agent simulate-iot --device <hardwareIdentifier>/);
    expect(command.stdout).toContain('--types <type,type,...>');
    expect(top).toMatchObject({ code: 0, stderr: '' });
    expect(top.stdout).toContain('careplane-agent help [<command>]');
  });

  it('refuses a bad flag and an unknown command on stderr with exit code 2, without a stack', async () => {
    const [flag, value, command] = await Promise.all([
      agent('enroll', '--server', 'https://careplane.example', '--tokn', 'cpd_x'),
      agent('simulate-iot', '--device', 'HW-1', '--rate', 'fast'),
      agent('enrol'),
    ]);
    expect(flag).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'careplane-agent enroll: unknown option --tokn\n' +
        'Usage: careplane-agent enroll --server <url> --token <device token> [options]\n' +
        'Run `careplane-agent enroll --help` for more.\n',
    });
    expect(value).toMatchObject({ code: 2, stdout: '' });
    expect(value.stderr.split('\n')[0]).toBe(
      'careplane-agent simulate-iot: --rate must be a positive number up to 100000, not "fast"',
    );
    expect(command).toMatchObject({ code: 2, stdout: '' });
    expect(command.stderr.split('\n')[0]).toBe('careplane-agent: unknown command "enrol"');
    for (const run of [flag, value, command]) expect(run.stderr).not.toMatch(/\n\s+at |Error/);
  });
});
