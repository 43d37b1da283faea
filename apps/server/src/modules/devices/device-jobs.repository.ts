// SQL of runner jobs as a device sees them (decision 025): hand-out by lease, acknowledgement, reports and
// the time-out of jobs whose device went silent.
import { and, asc, eq, exists, gt, inArray, isNotNull, isNull, lte, lt, min, or, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client.js';
import { deviceRunnerJobs, devices } from '@/db/schema/index.js';

export type JobRow = typeof deviceRunnerJobs.$inferSelect;

/** What a fetch was let in with: the device and the hash of the token it presented. */
export interface DeviceCredential {
  deviceId: string;
  tokenHash: string;
}

const now = sql`now()`;
const seconds = (value: number) => sql`now() + make_interval(secs => ${value})`;

/**
 * Marks TIMED_OUT the accepted or running jobs whose lease has passed (of one device, or of all when
 * `deviceId` is null); answers their ids.
 */
export async function expireLeases(executor: Executor, deviceId: string | null) {
  const rows = await executor
    .update(deviceRunnerJobs)
    .set({ status: 'TIMED_OUT', leaseExpiresAt: null })
    .where(
      and(
        inArray(deviceRunnerJobs.status, ['ACCEPTED', 'RUNNING']),
        lt(deviceRunnerJobs.leaseExpiresAt, now),
        deviceId ? eq(deviceRunnerJobs.deviceId, deviceId) : undefined,
      ),
    )
    .returning({ id: deviceRunnerJobs.id });
  return rows.map((row) => row.id);
}

const due = (deviceId: string) =>
  and(
    eq(deviceRunnerJobs.deviceId, deviceId),
    eq(deviceRunnerJobs.status, 'NEW'),
    lte(deviceRunnerJobs.notBefore, now),
    or(isNull(deviceRunnerJobs.leaseExpiresAt), lte(deviceRunnerJobs.leaseExpiresAt, now)),
  );

/**
 * The device, while it is enabled and `tokenHash` is still its token's hash. Locked for share: a re-key or a
 * disable that is under way is waited for and its result seen, and one that comes later waits for this
 * transaction, so what was found still holds when it commits.
 */
const currentDevice = (executor: Executor, credential: DeviceCredential) =>
  executor
    .select({ id: devices.id })
    .from(devices)
    .where(
      and(
        eq(devices.id, credential.deviceId),
        eq(devices.isEnabled, true),
        eq(devices.tokenHash, credential.tokenHash),
      ),
    )
    .for('share');

/**
 * Takes the device's oldest due job that no other fetch holds, and holds it for `handoutSeconds`, in one
 * statement that hands nothing out unless the credential is still current (`currentDevice`): a fetch that
 * began before its device was re-keyed or disabled gets no job, and leaves it to the device's current token.
 * Rows another transaction has locked are skipped, so concurrent fetches never get the same job.
 */
export async function claimNextJob(executor: Executor, credential: DeviceCredential, handoutSeconds: number) {
  const candidate = executor
    .select({ id: deviceRunnerJobs.id })
    .from(deviceRunnerJobs)
    .where(due(credential.deviceId))
    .orderBy(asc(deviceRunnerJobs.notBefore), asc(deviceRunnerJobs.createdAt), asc(deviceRunnerJobs.id))
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await executor
    .update(deviceRunnerJobs)
    .set({ leaseExpiresAt: seconds(handoutSeconds) })
    .where(and(inArray(deviceRunnerJobs.id, candidate), exists(currentDevice(executor, credential))))
    .returning();
  return row;
}

/** Whether the credential still lets its device in (see `currentDevice`). */
export async function isCurrentCredential(executor: Executor, credential: DeviceCredential) {
  const [row] = await currentDevice(executor, credential);
  return Boolean(row);
}

/**
 * When the device's next NEW job becomes available without anyone writing: its `notBefore` or the end of a
 * hand-out that was never acknowledged. Null when there is no NEW job waiting for time.
 */
export async function nextAvailableAt(executor: Executor, deviceId: string): Promise<Date | null> {
  const [row] = await executor
    .select({
      notBefore: min(deviceRunnerJobs.notBefore),
    })
    .from(deviceRunnerJobs)
    .where(
      and(
        eq(deviceRunnerJobs.deviceId, deviceId),
        eq(deviceRunnerJobs.status, 'NEW'),
        isNull(deviceRunnerJobs.leaseExpiresAt),
        gt(deviceRunnerJobs.notBefore, now),
      ),
    );
  const [held] = await executor
    .select({ leaseExpiresAt: min(deviceRunnerJobs.leaseExpiresAt) })
    .from(deviceRunnerJobs)
    .where(
      and(
        eq(deviceRunnerJobs.deviceId, deviceId),
        eq(deviceRunnerJobs.status, 'NEW'),
        isNotNull(deviceRunnerJobs.leaseExpiresAt),
      ),
    );
  const times = [row?.notBefore, held?.leaseExpiresAt]
    .filter((value) => value != null)
    .map((value) => new Date(value as Date | string));
  return times.length ? new Date(Math.min(...times.map((time) => time.getTime()))) : null;
}

/** Locks one job of the device for a change; undefined when the device has no such job. */
export async function lockDeviceJob(executor: Executor, deviceId: string, jobId: string) {
  const [row] = await executor
    .select()
    .from(deviceRunnerJobs)
    .where(and(eq(deviceRunnerJobs.id, jobId), eq(deviceRunnerJobs.deviceId, deviceId)))
    .for('update');
  return row;
}

/** Whether the job was handed out and its hand-out still holds (or has passed with nobody else taking it). */
export const wasHandedOut = (row: JobRow) => row.leaseExpiresAt !== null;

export async function setJobState(
  executor: Executor,
  jobId: string,
  values: { status: string; results?: Record<string, unknown>[]; leaseSeconds: number | null },
) {
  const [row] = await executor
    .update(deviceRunnerJobs)
    .set({
      status: values.status,
      ...(values.results ? { results: values.results } : {}),
      leaseExpiresAt: values.leaseSeconds === null ? null : seconds(values.leaseSeconds),
    })
    .where(eq(deviceRunnerJobs.id, jobId))
    .returning();
  return row!;
}

/** The device of a job, for waking the fetches waiting for it; undefined when the job is gone. */
export async function findJobDevice(executor: Executor, jobId: string) {
  const [row] = await executor
    .select({ deviceId: deviceRunnerJobs.deviceId })
    .from(deviceRunnerJobs)
    .where(eq(deviceRunnerJobs.id, jobId));
  return row?.deviceId;
}

/** How many jobs are in each status (for the operators' metrics). */
export async function countJobsByStatus(executor: Executor): Promise<{ status: string; count: number }[]> {
  return executor
    .select({ status: deviceRunnerJobs.status, count: sql<number>`count(*)::int` })
    .from(deviceRunnerJobs)
    .groupBy(deviceRunnerJobs.status);
}
