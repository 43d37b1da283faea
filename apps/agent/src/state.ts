// What the agent keeps on disk, under its state directory: its configuration (server, token, what it may
// run), the journal of the job in hand (written before anything of the job runs, so a restart never runs a
// job twice), the outbox of stats and job reports not yet delivered, and the ids of jobs it has finished.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface AgentConfig {
  server: string;
  token: string;
  deviceId: string;
  deviceTitle: string;
  /** Run text outside the vocabulary with `sh -c` (off unless enrolled with --allow-shell). */
  allowShell: boolean;
  /** Really reboot on `reboot` (off unless enrolled with --allow-reboot: then it is only reported). */
  allowReboot: boolean;
  /** Seconds between two stats. */
  statsIntervalSeconds: number;
  /** Seconds one command may run before it is stopped. */
  commandTimeoutSeconds: number;
}

export const DEFAULT_STATS_INTERVAL_SECONDS = 60;
export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 300;

/** The default state directory: under the user's home, or CAREPLANE_AGENT_STATE. */
export const defaultStateDir = () => process.env.CAREPLANE_AGENT_STATE || join(homedir(), '.careplane-agent');

export interface JobResult {
  command: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  startedAt: string;
  finishedAt: string;
}

/** The job in hand. `running` is set before its first command starts. */
export interface Journal {
  jobId: string;
  commands: string[];
  stage: 'fetched' | 'accepted' | 'running';
  /** Results of the commands that have finished. */
  results: JobResult[];
}

/** Something to deliver to the server, kept until the server has taken it (or refused it for good). */
export type OutboxItem =
  | { kind: 'stats'; body: unknown }
  | { kind: 'report'; jobId: string; body: { status: string; results?: JobResult[] } };

/** How many undelivered stats are kept; older ones go first (reports are always kept). */
export const MAX_QUEUED_STATS = 500;
/** How many finished job ids are remembered, so a job handed out again is not run again. */
const MAX_DONE_JOBS = 1000;

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Writes a file whole or not at all (a crash leaves the old one), readable by the owner only. */
async function writeJson(path: string, value: unknown) {
  const temporary = `${path}.${randomUUID()}.tmp`;
  await writeFile(temporary, JSON.stringify(value), { mode: 0o600 });
  await rename(temporary, path);
}

export class AgentState {
  readonly outboxDir: string;
  private sequence = 0;

  constructor(readonly dir: string) {
    this.outboxDir = join(dir, 'outbox');
  }

  async init() {
    await mkdir(this.outboxDir, { recursive: true, mode: 0o700 });
  }

  readConfig = () => readJson<AgentConfig>(join(this.dir, 'config.json'));
  writeConfig = (config: AgentConfig) => writeJson(join(this.dir, 'config.json'), config);

  readJournal = () => readJson<Journal>(join(this.dir, 'job.json'));
  writeJournal = (journal: Journal) => writeJson(join(this.dir, 'job.json'), journal);
  clearJournal = () => rm(join(this.dir, 'job.json'), { force: true });

  async doneJobs(): Promise<string[]> {
    return (await readJson<string[]>(join(this.dir, 'done-jobs.json'))) ?? [];
  }

  async markDone(jobId: string) {
    const done = (await this.doneJobs()).filter((id) => id !== jobId);
    done.push(jobId);
    await writeJson(join(this.dir, 'done-jobs.json'), done.slice(-MAX_DONE_JOBS));
  }

  /** Adds an item to the outbox; names sort in the order they were queued. */
  async enqueue(item: OutboxItem) {
    const name = `${Date.now().toString().padStart(15, '0')}-${String(++this.sequence).padStart(6, '0')}-${item.kind}.json`;
    await writeJson(join(this.outboxDir, name), item);
    if (item.kind === 'stats') await this.trimStats();
  }

  /** The outbox's files, oldest first. */
  async pending(): Promise<string[]> {
    return (await readdir(this.outboxDir)).filter((name) => name.endsWith('.json')).sort();
  }

  readItem = (name: string) => readJson<OutboxItem>(join(this.outboxDir, name));
  removeItem = (name: string) => rm(join(this.outboxDir, name), { force: true });

  private async trimStats() {
    const stats = (await this.pending()).filter((name) => name.endsWith('-stats.json'));
    for (const name of stats.slice(0, Math.max(0, stats.length - MAX_QUEUED_STATS))) {
      await this.removeItem(name);
    }
  }
}
