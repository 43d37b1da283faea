// The console's one outbox of prescription and alert actions: kept in IndexedDB (memory only where a browser has
// none, as in the unit tests), sent through the API client with each entry's Idempotency-Key.
import { createStore, get, update } from 'idb-keyval';
import {
  alertEndpoints,
  type AlertAcknowledge,
  type AlertClose,
} from '@careplane/shared/alerts/alerts.contract';
import { commandCenterEndpoints } from '@careplane/shared/command-centers/command-centers.contract';
import { keptForSecondsSince } from '@careplane/shared/common/kept-actions';
import {
  prescriptionActionPath,
  type PrescriptionActionBody,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { ApiError, api } from '@/lib/api-client.ts';
import { sessionStore } from '@/lib/session.ts';
import {
  createOutbox,
  memoryStorage,
  newIdempotencyKey,
  recordOf,
  type KeptAlertAction,
  type KeptPrescriptionAction,
  type OutboxEntry,
  type OmitOfEach,
  type OutboxInput,
  type OutboxStorage,
  type SendOutcome,
} from './outbox.ts';
import { isOnline } from './online.ts';

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
    return { kind: 'retry', message: error.message, answered: true };
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
  entry: Pick<KeptPrescriptionAction, 'prescriptionId' | 'action' | 'key' | 'reason' | 'expectedStatus'> & {
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

const alertActionPaths = {
  admin: { acknowledge: alertEndpoints.acknowledge, close: alertEndpoints.close },
  commandCenter: {
    acknowledge: commandCenterEndpoints.acknowledgeAlert,
    close: commandCenterEndpoints.closeAlert,
  },
} as const;

/**
 * Sends one alert action with its key (decision 107), through the admin's calls or the care team's. A kept one
 * says how long it was kept, as a prescription's does: it is dated back that far, never before the alert
 * (decision 105).
 */
export async function postAlertAction(
  entry: Pick<KeptAlertAction, 'alertId' | 'action' | 'via' | 'key' | 'note'> & { queuedAt?: number },
  now = Date.now(),
) {
  const kept = entry.queuedAt === undefined ? 0 : keptForSecondsSince(entry.queuedAt, now);
  const keptFor = kept > 0 ? { keptForSeconds: kept } : {};
  const path = alertActionPaths[entry.via][entry.action](entry.alertId);
  const body: AlertAcknowledge | AlertClose | undefined =
    entry.action === 'close'
      ? { closingData: { note: entry.note ?? '' }, ...keptFor }
      : kept > 0
        ? keptFor
        : undefined;
  return api.post<unknown>(path, body, { headers: { 'idempotency-key': entry.key } });
}

/** Sends a kept action by what it is on. */
const postKept = (entry: OutboxEntry) =>
  entry.kind === 'alert' ? postAlertAction(entry) : postAction(entry);

export const actionOutbox = createOutbox({
  storage: indexedDbStorage,
  send: async (entry) => {
    try {
      await postKept(entry);
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

/** An action kept on the device, to be sent once the network is back. */
export interface ActionKept {
  kept: OutboxEntry;
}

/**
 * Sends an action now, with a new Idempotency-Key, or keeps it: without a network, or with actions of this user on
 * the same record still waiting (they go first, in the order they were taken). When the request finds no network
 * or a server in trouble, it is kept with the same key, so that if it did arrive the send that follows changes
 * nothing. `post` is the action's own call; its answer is the caller's.
 */
export async function sendOrKeep<Input extends OmitOfEach<OutboxInput, 'userId' | 'key'>, Answer>(
  input: Input,
  post: (entry: Input & { key: string }) => Promise<Answer>,
): Promise<Answer | ActionKept> {
  const userId = sessionStore.getState().user?.id;
  const key = newIdempotencyKey();
  const keep = async (owner: string) => ({
    kept: await actionOutbox.enqueue({ ...input, key, userId: owner }),
  });
  const behind = actionOutbox
    .entries()
    .some((kept) => kept.userId === userId && recordOf(kept) === recordOf(input as OutboxInput));
  if (userId && (!isOnline() || behind)) {
    const answer = await keep(userId);
    if (isOnline()) void actionOutbox.flush(userId);
    return answer;
  }
  try {
    return await post({ ...input, key });
  } catch (error) {
    if (userId && outcomeOf(error).kind === 'retry') return keep(userId);
    throw error;
  }
}

export const isKept = (answer: unknown): answer is ActionKept =>
  typeof answer === 'object' && answer !== null && 'kept' in answer;
