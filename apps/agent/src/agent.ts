// The agent's run loop: stats on an interval, jobs by long poll, and an outbox that delivers both once the
// server can be reached. A job is journalled before anything of it runs, so a restart never runs it twice.
import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { AgentApi, Offline, Refused, type FetchedJob } from './api.js';
import { rebootMachine, runCommand, type CommandSettings } from './commands.js';
import { MAX_JOB_WAIT_SECONDS } from './limits.js';
import type { AgentConfig, AgentState, Journal, JobResult } from './state.js';
import { collectStats } from './stats.js';

export interface RunOptions {
  state: AgentState;
  config: AgentConfig;
  /** Seconds one long poll waits for a job. */
  pollWaitSeconds?: number;
  /** Seconds between attempts while the server cannot be reached. */
  retrySeconds?: number;
  signal: AbortSignal;
  /** Where log lines go besides the agent's log file (stdout by default). */
  print?: (line: string) => void;
}

/** What ended a run: a stop (signal), or a `restart-agent` job asking to be started again. */
export type RunEnd = 'stopped' | 'restart';

const MAX_LOG_BYTES = 1024 * 1024;

export async function runAgent(options: RunOptions): Promise<RunEnd> {
  const { state, config, signal } = options;
  const api = new AgentApi(config.server, config.token);
  const pollWait = Math.min(options.pollWaitSeconds ?? 25, MAX_JOB_WAIT_SECONDS);
  const retryMs = (options.retrySeconds ?? 10) * 1000;
  const print = options.print ?? ((line: string) => console.log(line));
  const logFile = join(state.dir, 'agent.log');
  const settings: CommandSettings = {
    stateDir: state.dir,
    allowShell: config.allowShell,
    allowReboot: config.allowReboot,
    timeoutMs: config.commandTimeoutSeconds * 1000,
    logFile,
  };
  let end: RunEnd = 'stopped';
  const finished = new AbortController();
  const stopped = AbortSignal.any([signal, finished.signal]);

  async function log(message: string) {
    const line = `${new Date().toISOString()} ${message}`;
    print(line);
    try {
      await appendFile(logFile, `${line}\n`, { mode: 0o600 });
      if ((await stat(logFile)).size > MAX_LOG_BYTES) {
        await writeFile(logFile, (await readFile(logFile, 'utf8')).slice(-MAX_LOG_BYTES / 4));
      }
    } catch {
      // The log is a convenience; the agent goes on without it.
    }
  }

  const pause = (ms: number) => delay(ms, undefined, { signal: stopped }).catch(() => undefined);

  // ---- the outbox: delivered in order; a final refusal drops an item, anything else keeps it for later.
  let flushing: Promise<boolean> | null = null;
  async function deliver(): Promise<boolean> {
    for (const name of await state.pending()) {
      const item = await state.readItem(name);
      if (!item) continue;
      try {
        if (item.kind === 'stats') await api.postStats(item.body);
        else await api.report(item.jobId, item.body);
      } catch (error) {
        if (error instanceof Offline) return false;
        if (error instanceof Refused && (error.retryable || error.status === 401)) {
          await log(`Delivery postponed: ${error.message}`);
          return false;
        }
        if (!(error instanceof Refused)) throw error;
        await log(
          `Dropped a ${item.kind === 'stats' ? 'stat' : `report of job ${item.jobId}`}: ${error.message}`,
        );
      }
      await state.removeItem(name);
    }
    return true;
  }
  /** Delivers what is queued; true when the outbox is empty afterwards. */
  function flush(): Promise<boolean> {
    flushing ??= deliver().finally(() => {
      flushing = null;
    });
    return flushing;
  }

  // ---- jobs
  async function runJob(journal: Journal) {
    // RUNNING goes through the outbox too, so the reports arrive in order even after a time offline.
    await state.enqueue({ kind: 'report', jobId: journal.jobId, body: { status: 'RUNNING' } });
    journal.stage = 'running';
    await state.writeJournal(journal);
    void flush();
    let after: 'restart-agent' | 'reboot' | undefined;
    let failed = false;
    for (const command of journal.commands.slice(journal.results.length)) {
      await log(`Job ${journal.jobId}: ${command}`);
      const outcome = await runCommand(command, settings);
      if (outcome.show) await log(`Message from the care team: ${outcome.show}`);
      journal.results.push(outcome.result);
      await state.writeJournal(journal);
      after ??= outcome.after;
      // A job stops at its first failing command.
      if (outcome.result.exitCode !== 0) {
        failed = true;
        break;
      }
    }
    await complete(journal, failed ? 'FAILED' : 'SUCCEEDED', journal.results);
    if (after === 'restart-agent') {
      end = 'restart';
      finished.abort();
    } else if (after === 'reboot') {
      await flush();
      rebootMachine();
    }
  }

  async function complete(journal: Journal, status: 'SUCCEEDED' | 'FAILED', results: JobResult[]) {
    await state.enqueue({ kind: 'report', jobId: journal.jobId, body: { status, results } });
    await state.markDone(journal.jobId);
    await state.clearJournal();
    await log(`Job ${journal.jobId}: ${status}`);
    await flush();
  }

  /** Acknowledges the job (retrying while offline); false when the server refuses it. */
  async function acknowledge(journal: Journal): Promise<boolean> {
    while (!stopped.aborted) {
      try {
        await api.acknowledge(journal.jobId);
        journal.stage = 'accepted';
        await state.writeJournal(journal);
        return true;
      } catch (error) {
        if (error instanceof Refused && !error.retryable) {
          await log(`Job ${journal.jobId} not accepted: ${error.message}`);
          await state.clearJournal();
          return false;
        }
        await pause(retryMs);
      }
    }
    return false;
  }

  async function take(job: FetchedJob) {
    if ((await state.doneJobs()).includes(job.id)) {
      await log(`Job ${job.id} was already run here; not again`);
      return;
    }
    const journal: Journal = { jobId: job.id, commands: job.commands, stage: 'fetched', results: [] };
    await state.writeJournal(journal);
    await log(`Job ${job.id} fetched: ${job.purpose}`);
    if (await acknowledge(journal)) await runJob(journal);
  }

  /** A job left in hand by the previous run: finished if nothing of it ran, reported as interrupted if it did. */
  async function recover() {
    const journal = await state.readJournal();
    if (!journal) return;
    if ((await state.doneJobs()).includes(journal.jobId)) {
      await state.clearJournal();
      return;
    }
    if (journal.stage === 'fetched') {
      if (await acknowledge(journal)) await runJob(journal);
    } else if (journal.stage === 'accepted') {
      await runJob(journal);
    } else {
      const interrupted = journal.commands[journal.results.length];
      const now = new Date().toISOString();
      const results = interrupted
        ? [
            ...journal.results,
            {
              command: interrupted,
              exitCode: null,
              stdout: '',
              stderr: 'Interrupted: the agent stopped while this command ran; it is not run again.',
              startedAt: now,
              finishedAt: now,
            },
          ]
        : journal.results;
      await log(`Job ${journal.jobId} was interrupted by a restart; reporting it, not running it again`);
      await complete(journal, interrupted ? 'FAILED' : 'SUCCEEDED', results);
    }
  }

  async function jobsLoop() {
    await recover();
    while (!stopped.aborted) {
      let job: FetchedJob | null;
      try {
        job = await api.nextJob(pollWait, stopped);
      } catch (error) {
        if (stopped.aborted) break;
        if (!(error instanceof Offline)) await log(`Fetching jobs failed: ${(error as Error).message}`);
        await pause(retryMs);
        continue;
      }
      if (job) await take(job);
    }
  }

  async function statsLoop() {
    while (!stopped.aborted) {
      try {
        await state.enqueue({ kind: 'stats', body: await collectStats() });
      } catch (error) {
        await log(`Reading stats failed: ${(error as Error).message}`);
      }
      await flush();
      await pause(config.statsIntervalSeconds * 1000);
    }
  }

  /** Tries the outbox again while something is left in it. */
  async function retryLoop() {
    while (!stopped.aborted) {
      await pause(retryMs);
      if ((await state.pending()).length) await flush();
    }
  }

  await log(`careplane-agent for "${config.deviceTitle}" (${config.deviceId}) against ${config.server}`);
  // What is still queued stays on disk for the next run.
  await Promise.all([jobsLoop(), statsLoop(), retryLoop()]);
  return end;
}
