// The commands a job may carry (decisions §7): reboot, restart-agent, collect-logs, ping <host>,
// notify <text>. Anything else is a shell command and runs only on an agent enrolled with --allow-shell.
// Every command ends in a result with an exit code and output cut to MAX_JOB_OUTPUT; none throws.
import { execFile, spawn } from 'node:child_process';
import { appendFile, readFile } from 'node:fs/promises';
import { hostname, release, type as osType, uptime } from 'node:os';
import { join } from 'node:path';
import { MAX_JOB_COMMAND_LENGTH, MAX_JOB_OUTPUT, PING_HOST } from './limits.js';
import type { JobResult } from './state.js';
import { AGENT_VERSION } from './version.js';

export interface CommandSettings {
  stateDir: string;
  allowShell: boolean;
  allowReboot: boolean;
  timeoutMs: number;
  /** Where the agent's own log is (collect-logs reads its tail). */
  logFile: string;
}

export interface CommandOutcome {
  result: JobResult;
  /** After the job is reported: restart the agent, or reboot the machine (only when allowed). */
  after?: 'restart-agent' | 'reboot';
  /** A message for the person at the device (a care team's alert): the agent prints it. */
  show?: string;
}

const TRUNCATED = '\n[… output truncated]';

/** Cuts output to the bound the server accepts, saying so. */
export function bound(text: string): string {
  if (text.length <= MAX_JOB_OUTPUT) return text;
  return text.slice(0, MAX_JOB_OUTPUT - TRUNCATED.length) + TRUNCATED;
}

function split(command: string): [string, string] {
  const trimmed = command.trim();
  const space = trimmed.search(/\s/);
  return space < 0 ? [trimmed, ''] : [trimmed.slice(0, space), trimmed.slice(space + 1).trim()];
}

/** Runs a program without a shell; output is collected up to a bound, the program stopped at the timeout. */
function runProgram(
  file: string,
  args: string[],
  timeoutMs: number,
): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const keep = (current: string, chunk: Buffer) =>
      current.length > MAX_JOB_OUTPUT * 2 ? current : current + chunk.toString('utf8');
    child.stdout.on('data', (chunk: Buffer) => (stdout = keep(stdout, chunk)));
    child.stderr.on('data', (chunk: Buffer) => (stderr = keep(stderr, chunk)));
    const timer = setTimeout(() => {
      stderr += `\nStopped after ${Math.round(timeoutMs / 1000)} s`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ exitCode: error.code === 'ENOENT' ? 127 : 126, stdout, stderr: `${file}: ${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, stdout, stderr });
    });
  });
}

export async function runCommand(command: string, settings: CommandSettings): Promise<CommandOutcome> {
  const startedAt = new Date().toISOString();
  const finish = (exitCode: number | null, stdout: string, stderr = ''): JobResult => ({
    command: command.slice(0, MAX_JOB_COMMAND_LENGTH),
    exitCode,
    stdout: bound(stdout),
    stderr: bound(stderr),
    startedAt,
    finishedAt: new Date().toISOString(),
  });
  const [verb, rest] = split(command);

  switch (verb) {
    case 'reboot':
      if (!rest) {
        if (!settings.allowReboot) {
          return {
            result: finish(0, 'Reboot simulated: this agent is not enrolled with --allow-reboot.\n'),
          };
        }
        return { result: finish(0, 'Rebooting once this job is reported.\n'), after: 'reboot' };
      }
      break;
    case 'restart-agent':
      if (!rest)
        return {
          result: finish(0, 'Restarting the agent once this job is reported.\n'),
          after: 'restart-agent',
        };
      break;
    case 'collect-logs':
      if (!rest) return { result: finish(0, await collectLogs(settings)) };
      break;
    case 'ping': {
      if (!PING_HOST.test(rest))
        return { result: finish(2, '', `ping: not a host name or address: ${rest}`) };
      const outcome = await runProgram('ping', ['-c', '3', '-W', '2', rest], settings.timeoutMs);
      return { result: finish(outcome.exitCode, outcome.stdout, outcome.stderr) };
    }
    case 'notify': {
      if (!rest) return { result: finish(2, '', 'notify: no text given') };
      const line = `${new Date().toISOString()} ${rest}\n`;
      await appendFile(join(settings.stateDir, 'notifications.log'), line, { mode: 0o600 });
      return { result: finish(0, `Notified: ${rest}\n`), show: rest };
    }
  }

  if (!settings.allowShell) {
    return {
      result: finish(127, '', `Unknown command "${verb}": shell commands are not allowed on this agent.`),
    };
  }
  const outcome = await runProgram('/bin/sh', ['-c', command], settings.timeoutMs);
  return { result: finish(outcome.exitCode, outcome.stdout, outcome.stderr) };
}

async function collectLogs(settings: CommandSettings): Promise<string> {
  const lines = [
    `careplane-agent ${AGENT_VERSION} on ${hostname()} (${osType()} ${release()}), up ${Math.round(uptime())} s`,
  ];
  try {
    const log = await readFile(settings.logFile, 'utf8');
    lines.push('--- agent log (newest last) ---', log.slice(-(MAX_JOB_OUTPUT - 512)));
  } catch {
    lines.push('(no agent log yet)');
  }
  return lines.join('\n');
}

/** Reboots the machine (only reached when the agent is enrolled with --allow-reboot). */
export function rebootMachine() {
  execFile('systemctl', ['reboot'], (error) => {
    if (error) execFile('shutdown', ['-r', 'now']);
  });
}
