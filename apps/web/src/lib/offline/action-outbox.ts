// The console's one outbox of prescription actions: kept in IndexedDB (memory only where a browser has none,
// as in the unit tests), sent through the API client with each entry's Idempotency-Key.
import { createStore, get, update } from 'idb-keyval';
import { keptForSecondsSince } from '@careplane/shared/common/kept-actions';
import {
  prescriptionActionPath,
  type PrescriptionActionBody,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { ApiError, api } from '@/lib/api-client.ts';
import {
  createOutbox,
  memoryStorage,
  type OutboxEntry,
  type OutboxStorage,
  type SendOutcome,
} from './outbox.ts';

const RECORD = 'entries';

export function indexedDbStorage(): OutboxStorage {
  if (typeof indexedDB === 'undefined') return memoryStorage();
  const store = createStore('careplane-offline', 'outbox');
  return {
    read: async () => (await get<OutboxEntry[]>(RECORD, store)) ?? [],
    update: async (change) => {
      let changed: OutboxEntry[] = [];
      // One readwrite transaction: another tab's change cannot fall between the read and the write.
      await update<OutboxEntry[]>(RECORD, (kept) => (changed = change(kept ?? [])), store);
      return changed;
    },
  };
}

/**
 * The status a 409 names, as the server writes it (`on_hold`): the server's conflict body has it as the issue
 * at `status`, the same in every language.
 */
export function conflictStatus(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 409) return undefined;
  const issues = (error.body as { issues?: { path?: unknown; message?: unknown }[] } | undefined)?.issues;
  const issue = Array.isArray(issues) ? issues.find((item) => item.path === 'status') : undefined;
  return typeof issue?.message === 'string' ? issue.message : undefined;
}

/** What an answer (or its absence) means for a kept action. */
export function outcomeOf(error: unknown): SendOutcome {
  if (!(error instanceof ApiError)) {
    return { kind: 'retry', message: error instanceof Error ? error.message : String(error) };
  }
  if (error.status === 409) {
    const status = conflictStatus(error)?.replaceAll('_', ' ');
    return status ? { kind: 'conflict', status } : { kind: 'rejected', message: error.message };
  }
  if (error.status === 401) return { kind: 'retry', message: error.message, signIn: true };
  if (error.status === 408 || error.status === 429 || error.status >= 500) {
    return { kind: 'retry', message: error.message };
  }
  return { kind: 'rejected', message: error.message };
}

/**
 * Sends one action with its key: a plain action's answer is the prescription, a repeat's the same. A kept
 * action also says how long it was kept (decision 076), by this device's clock: the server records when it was
 * taken by its own clock, whatever this one says the time is. A hold or a return says why when it was told. Each
 * says the status it was taken on, so that it applies only from there (decision 093).
 */
export async function postAction(
  entry: Pick<OutboxEntry, 'prescriptionId' | 'action' | 'key' | 'reason' | 'expectedStatus'> & {
    queuedAt?: number;
  },
  now = Date.now(),
) {
  const kept =
    entry.queuedAt === undefined ? {} : { keptForSeconds: keptForSecondsSince(entry.queuedAt, now) };
  const said: PrescriptionActionBody = {
    ...(entry.reason ? { reason: entry.reason } : {}),
    ...kept,
    ...(entry.expectedStatus ? { expectedStatus: entry.expectedStatus } : {}),
  };
  const body = Object.keys(said).length ? said : undefined;
  return api.post<unknown>(prescriptionActionPath(entry.prescriptionId, entry.action), body, {
    headers: { 'idempotency-key': entry.key },
  });
}

export const actionOutbox = createOutbox({
  storage: indexedDbStorage,
  send: async (entry) => {
    try {
      await postAction(entry);
      return { kind: 'sent' };
    } catch (error) {
      return outcomeOf(error);
    }
  },
  exclusive: <T>(work: () => Promise<T>) => {
    // Web Locks only where they are there (secure contexts; some test DOMs name them but hold null).
    const locks =
      typeof navigator === 'undefined' ? undefined : (navigator.locks as LockManager | null | undefined);
    return typeof locks?.request === 'function'
      ? // The lock is held until `work` settles, and `request` settles with it.
        (locks.request('careplane-outbox', work) as Promise<unknown> as Promise<T>)
      : work();
  },
});
