// The outbox of the console (decisions 046 and 107): prescription status actions and alert actions taken without
// a network, kept on the device (IndexedDB) and sent in the order they were taken once the network is back, each
// with the Idempotency-Key it got when it was kept, so a send that is repeated (the answer was lost, another tab
// sent it too) is applied once by the server. The list lives in one IndexedDB record changed in one transaction at a time, so
// tabs never overwrite each other's entries; sending runs in one tab at a time (Web Locks) where the browser
// has them.
import type { PrescriptionAction } from '@careplane/shared/prescriptions/prescription-transitions';
import type { PrescriptionStatus } from '@careplane/shared/common/enums';

/** What every kept action carries, whatever it is on. */
interface KeptAction {
  /** The Idempotency-Key: fixed when the action is kept, the same on every send. */
  key: string;
  /** Whose action it is: only that user's session sends it. */
  userId: string;
  /** The action's button label and what it was done to, for the card and the notices. */
  label: string;
  subject?: string | undefined;
  /** Order of sending: kept first, sent first. */
  seq: number;
  queuedAt: number;
  attempts: number;
  lastError?: string | undefined;
}

/** A status action on a prescription (entries kept before alerts could be kept have no `kind`). */
export interface KeptPrescriptionAction extends KeptAction {
  kind?: 'prescription' | undefined;
  prescriptionId: string;
  action: PrescriptionAction;
  /** Why, for the actions that may say (hold, return): sent with the action into its history. */
  reason?: string | undefined;
  /**
   * The prescription's status when the action was taken: the server applies it only while the prescription is
   * still there (decision 093), so a kept action never undoes what a colleague did meanwhile.
   */
  expectedStatus?: PrescriptionStatus | undefined;
}

/**
 * Whose calls act on an alert: the admin's (`/api/alerts/…`, any alert) or a command center's care team
 * (`/api/command-centers/alerts/…`, the alerts of their own centers; decision 079).
 */
export type AlertActionsVia = 'admin' | 'commandCenter';

/** Acknowledging or closing an alert (decision 107). */
export interface KeptAlertAction extends KeptAction {
  kind: 'alert';
  alertId: string;
  action: 'acknowledge' | 'close';
  via: AlertActionsVia;
  /** What was done, written when closing: the alert's closingData. */
  note?: string | undefined;
}

export type OutboxEntry = KeptPrescriptionAction | KeptAlertAction;

/** `Omit` of each kind of kept action apart, so that what is left is still one kind or the other. */
export type OmitOfEach<Entry, Keys extends PropertyKey> = Entry extends unknown ? Omit<Entry, Keys> : never;

export type OutboxInput = OmitOfEach<OutboxEntry, 'key' | 'seq' | 'queuedAt' | 'attempts' | 'lastError'> & {
  key?: string;
};

/** The record a kept action is on: the prescription's id or the alert's. */
export const keptOn = (entry: OutboxInput | OutboxEntry): string =>
  entry.kind === 'alert' ? entry.alertId : entry.prescriptionId;

/** The record a kept action is on, with what kind of record it is: the order that matters is within one. */
export const recordOf = (entry: OutboxInput | OutboxEntry): string =>
  `${entry.kind ?? 'prescription'} ${keptOn(entry)}`;

/**
 * What a send came to: `sent` (applied now or earlier: the key's repeat), `conflict` (the prescription had
 * moved on: it is now `status`), `rejected` (it will never apply), `retry` (kept for the next try: no answer or
 * a session to renew holds every action after it; a server that answered in trouble for this record, `answered`,
 * holds only the later actions on that record).
 */
export type SendOutcome =
  | { kind: 'sent' }
  | { kind: 'conflict'; status: string }
  | { kind: 'rejected'; message: string }
  | { kind: 'retry'; message: string; signIn?: boolean; answered?: boolean };

export interface FlushResult {
  entry: OutboxEntry;
  outcome: SendOutcome;
}

/** Where the entries are kept: read, and changed as a whole in one step. */
export interface OutboxStorage {
  read(): Promise<OutboxEntry[]>;
  update(change: (entries: OutboxEntry[]) => OutboxEntry[]): Promise<OutboxEntry[]>;
}

export function memoryStorage(initial: OutboxEntry[] = []): OutboxStorage {
  let entries = [...initial];
  return {
    read: () => Promise.resolve([...entries]),
    update: (change) => {
      entries = change([...entries]);
      return Promise.resolve([...entries]);
    },
  };
}

/** A version 4 UUID, also where crypto.randomUUID is missing (a page not served over HTTPS). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const inOrder = (entries: readonly OutboxEntry[]) => [...entries].sort((a, b) => a.seq - b.seq);

export interface OutboxOptions {
  storage: OutboxStorage | (() => OutboxStorage);
  send: (entry: OutboxEntry) => Promise<SendOutcome>;
  now?: () => number;
  /** Runs `work` alone across the browser's tabs (Web Locks), where it can. */
  exclusive?: <T>(work: () => Promise<T>) => Promise<T>;
}

export function createOutbox(options: OutboxOptions) {
  const now = options.now ?? Date.now;
  let storage: OutboxStorage | undefined;
  const store = () =>
    (storage ??= typeof options.storage === 'function' ? options.storage() : options.storage);
  let entries: readonly OutboxEntry[] = [];
  const listeners = new Set<() => void>();
  const sendListeners = new Set<(results: FlushResult[]) => void>();
  const show = (next: readonly OutboxEntry[]) => {
    entries = inOrder(next);
    listeners.forEach((listener) => listener());
  };
  const exclusive = options.exclusive ?? (<T>(work: () => Promise<T>) => work());

  /**
   * Sends the user's kept actions in the order they were taken. An action that must wait holds the later ones on
   * its record (they were taken after it); one that got no answer, or needs a new session, holds them all.
   */
  async function sendAll(userId: string): Promise<FlushResult[]> {
    const results: FlushResult[] = [];
    const held = new Set<string>();
    for (;;) {
      const kept = await store().read();
      show(kept);
      const next = inOrder(kept).find((entry) => entry.userId === userId && !held.has(recordOf(entry)));
      if (!next) return results;
      let outcome: SendOutcome;
      try {
        outcome = await options.send(next);
      } catch (error) {
        outcome = { kind: 'retry', message: error instanceof Error ? error.message : String(error) };
      }
      results.push({ entry: next, outcome });
      if (outcome.kind === 'retry') {
        const failed = { attempts: next.attempts + 1, lastError: outcome.message };
        show(
          await store().update((list) =>
            list.map((entry) => (entry.key === next.key ? { ...entry, ...failed } : entry)),
          ),
        );
        if (!outcome.answered || outcome.signIn) return results;
        held.add(recordOf(next));
        continue;
      }
      show(await store().update((list) => list.filter((entry) => entry.key !== next.key)));
    }
  }

  // One send at a time in this tab: a call while one runs waits for it and then runs once more, so what was
  // kept meanwhile is sent too.
  let running: Promise<unknown> = Promise.resolve();
  let waiting: Promise<FlushResult[]> | null = null;

  return {
    /** Reads the kept entries (at start, and when another tab may have changed them). */
    async load(): Promise<readonly OutboxEntry[]> {
      show(await store().read());
      return entries;
    },
    /** The kept entries, in sending order (as last read or changed here). */
    entries: (): readonly OutboxEntry[] => entries,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /**
     * Keeps an action for later, after everything kept before it. The same action of the same user on the same
     * prescription or alert already kept (in another tab, or tapped twice) is that one: it is sent once (decision
     * 076).
     */
    async enqueue(input: OutboxInput): Promise<OutboxEntry> {
      let entry: OutboxEntry | undefined;
      show(
        await store().update((list) => {
          entry = list.find(
            (kept) =>
              kept.userId === input.userId &&
              recordOf(kept) === recordOf(input) &&
              kept.action === input.action,
          );
          if (entry) return list;
          entry = {
            ...input,
            key: input.key ?? newIdempotencyKey(),
            seq: list.reduce((max, kept) => Math.max(max, kept.seq), 0) + 1,
            queuedAt: now(),
            attempts: 0,
          };
          return [...list, entry];
        }),
      );
      return entry!;
    },
    /**
     * Told what became of the actions each send tried, whoever asked for the send (the runner, or an action taken
     * while others wait): the notices and the refresh follow every send.
     */
    onSent: (listener: (results: FlushResult[]) => void) => {
      sendListeners.add(listener);
      return () => void sendListeners.delete(listener);
    },
    /** Sends the user's kept actions in order until each must wait; tells what became of each one tried. */
    flush(userId: string): Promise<FlushResult[]> {
      if (waiting) return waiting;
      const turn = running
        .then(() => {
          waiting = null;
          return exclusive(() => sendAll(userId));
        })
        .then((results) => {
          if (results.length) sendListeners.forEach((listener) => listener(results));
          return results;
        });
      waiting = turn;
      running = turn.catch(() => undefined);
      return turn;
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
