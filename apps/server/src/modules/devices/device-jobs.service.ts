// Runner jobs from the device's side (decisions §7, decision 025): a long-polled fetch that hands a due job to
// exactly one caller for a short hand-out, the device's acknowledgement (NEW → ACCEPTED), its reports
// (RUNNING → SUCCEEDED | FAILED) and the time-out of jobs whose device went silent.
import {
  JOB_HANDOUT_SECONDS,
  JOB_LEASE_SECONDS,
  canTransitionJob,
  isFinishedJobStatus,
  type DeviceJob,
  type DeviceJobReport,
} from '@careplane/shared/devices/devices.contract';
import type { ProcessStatus } from '@careplane/shared/common/enums';
import type { ActionContext } from '@/lib/audit.js';
import { conflict, notFound, serviceTexts, unauthorized } from '@/lib/errors.js';
import type { Store, WriteScope } from '@/lib/store.js';
import * as repository from './device-jobs.repository.js';
import { devicesResource } from './devices.resource.js';

const RESOURCE = 'device-jobs';

export interface RunnerOptions {
  /** Seconds a fetched job stays with its fetch until acknowledged. */
  handoutSeconds?: number;
  /** Seconds an accepted or running job lives after the device's last word. */
  leaseSeconds?: number;
  /**
   * Told when a fetch has looked, found nothing and begins to wait: a test changes the device only then, so
   * that nothing but the change itself can end the wait.
   */
  onWait?: (deviceId: string) => void;
}

interface ReadJob {
  read(id: string, options: { relations: [] }): Promise<DeviceJob>;
}

export function createDeviceJobsRunner(store: Store, jobs: ReadJob, options: RunnerOptions = {}) {
  const handoutSeconds = options.handoutSeconds ?? JOB_HANDOUT_SECONDS;
  const leaseSeconds = options.leaseSeconds ?? JOB_LEASE_SECONDS;

  // Fetches waiting for a job, by device. A committed change of any job (here or in another process, through
  // the change feed) wakes the waiters of that job's device; a change of the device itself (a re-key, a
  // disable) wakes them too, so a fetch whose token no longer lets it in is refused at once, not at its end.
  const waiters = new Map<string, Set<() => void>>();
  const wake = (deviceId: string) => {
    for (const resolve of waiters.get(deviceId) ?? []) resolve();
  };
  const wakeAll = () => {
    for (const deviceId of waiters.keys()) wake(deviceId);
  };
  store.changes.subscribe(async (changes) => {
    if (waiters.size === 0) return;
    for (const change of changes) {
      if (change.resource === '*') wakeAll();
      if (change.resource === devicesResource.name) {
        if (change.recordId) wake(change.recordId);
        else wakeAll();
      }
      if (change.resource !== RESOURCE || !change.recordId) continue;
      const deviceId = await repository.findJobDevice(store.db, change.recordId);
      if (deviceId) wake(deviceId);
      else wakeAll(); // deleted: its waiters look again, cheaply
    }
  });

  /**
   * Starts listening for changes of the device's jobs. Registered before a fetch looks for a job, so a job
   * committed between the look and the wait is not missed: `wait` then returns at once.
   */
  function watchDevice(deviceId: string, signal: AbortSignal) {
    let woken = false;
    let resolveWait: (() => void) | null = null;
    let timer: NodeJS.Timeout | undefined;
    const set = waiters.get(deviceId) ?? new Set<() => void>();
    waiters.set(deviceId, set);
    const wakeUp = () => {
      woken = true;
      resolveWait?.();
    };
    const stop = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', wakeUp);
      set.delete(wakeUp);
      if (set.size === 0 && waiters.get(deviceId) === set) waiters.delete(deviceId);
    };
    set.add(wakeUp);
    signal.addEventListener('abort', wakeUp, { once: true });
    return {
      /** Resolves on a change since the watch began, after `ms`, or when `signal` aborts. */
      wait: (ms: number) =>
        new Promise<void>((resolve) => {
          if (woken || signal.aborted) return resolve();
          resolveWait = resolve;
          timer = setTimeout(resolve, Math.max(0, ms));
        }),
      stop,
    };
  }

  async function expire(scope: WriteScope, deviceId: string | null) {
    for (const id of await repository.expireLeases(scope.tx, deviceId)) {
      await scope.audit({
        action: 'time-out',
        resource: RESOURCE,
        recordId: id,
        changes: { status: 'TIMED_OUT' },
      });
    }
  }

  /**
   * One attempt: times out the device's silent jobs and takes its next due job, if any. A credential that no
   * longer lets the device in (re-keyed or disabled since the fetch began) is refused as the auth plugin
   * refuses it on an ordinary call, and gets no job.
   */
  async function claim(credential: repository.DeviceCredential, context: ActionContext) {
    const id = await store.write(context, async (scope) => {
      await expire(scope, credential.deviceId);
      const row = await repository.claimNextJob(scope.tx, credential, handoutSeconds);
      if (!row) {
        if (!(await repository.isCurrentCredential(scope.tx, credential))) {
          throw unauthorized(serviceTexts.invalidDeviceToken);
        }
        return null;
      }
      await scope.audit({
        action: 'hand-out',
        resource: RESOURCE,
        recordId: row.id,
        changes: { leaseExpiresAt: row.leaseExpiresAt },
      });
      return row.id;
    });
    return id ? jobs.read(id, { relations: [] }) : null;
  }

  /**
   * The device's next due job, waiting up to `waitSeconds` for one (a long poll): answers as soon as a job is
   * created or becomes due, null when none came. `signal` ends the wait early (the client went away). Every
   * look asks again whether `credential` lets the device in: a wait that outlives its token ends in a 401.
   */
  async function nextJob(
    credential: repository.DeviceCredential,
    waitSeconds: number,
    context: ActionContext,
    signal: AbortSignal,
  ): Promise<DeviceJob | null> {
    const { deviceId } = credential;
    const deadline = Date.now() + waitSeconds * 1000;
    for (;;) {
      const watch = watchDevice(deviceId, signal);
      try {
        const job = await claim(credential, context);
        if (job) return job;
        const remaining = deadline - Date.now();
        if (remaining <= 0 || signal.aborted) return null;
        const next = await repository.nextAvailableAt(store.db, deviceId);
        const untilDue = next ? next.getTime() - Date.now() + 5 : Number.POSITIVE_INFINITY;
        options.onWait?.(deviceId);
        await watch.wait(Math.min(remaining, untilDue));
      } finally {
        watch.stop();
      }
    }
  }

  /** The device acknowledges a job it fetched: NEW → ACCEPTED; its lease starts. */
  async function acknowledge(deviceId: string, jobId: string, context: ActionContext) {
    await store.write(context, async (scope) => {
      await expire(scope, deviceId);
      const row = await repository.lockDeviceJob(scope.tx, deviceId, jobId);
      if (!row) throw notFound('Device job');
      if (row.status !== 'NEW') throw conflict(serviceTexts.jobNotNew(row.status));
      if (!repository.wasHandedOut(row)) throw conflict(serviceTexts.jobNotFetched);
      await repository.setJobState(scope.tx, jobId, { status: 'ACCEPTED', leaseSeconds });
      await scope.audit({
        action: 'update',
        resource: RESOURCE,
        recordId: jobId,
        changes: { status: 'ACCEPTED' },
      });
    });
    return jobs.read(jobId, { relations: [] });
  }

  /** The device reports progress or the outcome of a job it accepted. */
  async function report(deviceId: string, jobId: string, body: DeviceJobReport, context: ActionContext) {
    await store.write(context, async (scope) => {
      await expire(scope, deviceId);
      const row = await repository.lockDeviceJob(scope.tx, deviceId, jobId);
      if (!row) throw notFound('Device job');
      const from = row.status as ProcessStatus;
      if (from === 'NEW' || !canTransitionJob(from, body.status)) {
        throw conflict(serviceTexts.jobCannotBecome(from, body.status));
      }
      await repository.setJobState(scope.tx, jobId, {
        status: body.status,
        ...(body.results ? { results: body.results } : {}),
        leaseSeconds: isFinishedJobStatus(body.status) ? null : leaseSeconds,
      });
      await scope.audit({
        action: 'update',
        resource: RESOURCE,
        recordId: jobId,
        changes: { status: body.status, ...(body.results ? { results: body.results.length } : {}) },
      });
    });
    return jobs.read(jobId, { relations: [] });
  }

  /** Times out every silent job (all devices); run on a timer so the console shows them without a fetch. */
  const sweep = (context: ActionContext) => store.write(context, (scope) => expire(scope, null));

  return {
    nextJob,
    acknowledge,
    report,
    sweep,
    countByStatus: () => repository.countJobsByStatus(store.db),
  };
}

export type DeviceJobsRunner = ReturnType<typeof createDeviceJobsRunner>;
