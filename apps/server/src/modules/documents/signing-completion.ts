// Completes signatures on the server as soon as a phone answers, whether or not anybody is looking. The auth
// server tells the change feed of every answer to a resource request, in whichever process the phone reached;
// the feed carries it to every process on the database, and each settles the request (one of them wins: the
// request row is locked and ended once). A sweep at start and then every interval settles what no process
// heard (a restart, a lost connection) and ends the requests whose time ran out.
import type { FastifyBaseLogger } from 'fastify';
import { AUTH_REQUEST_ANSWERED, RESYNC, type Change, type ChangeFeed } from '@/lib/changes.js';
import type { DocumentsService } from './documents.service.js';

/** Requests settled per sweep at most: the rest wait for the next one. */
const SWEEP_BATCH = 200;

export interface SigningCompletionOptions {
  changes: ChangeFeed;
  documents: Pick<DocumentsService, 'settleSigning' | 'waitingSigningRequests'>;
  /** Further sweeps of the workflows that wait on signatures (their own leftovers). */
  sweeps?: readonly (() => Promise<void>)[];
  intervalMs: number;
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
}

export interface SigningCompletion {
  /** Settles every waiting request whose phone answered or whose time ran out. */
  sweep(): Promise<void>;
  /** Stops listening and sweeping, and waits for what is under way. */
  close(): Promise<void>;
}

const isDecision = (change: Change) => change.resource === AUTH_REQUEST_ANSWERED && change.recordId !== null;

export function startSigningCompletion(options: SigningCompletionOptions): SigningCompletion {
  const { documents, log } = options;
  /** One settlement per request at a time in this process (an answer heard during a sweep, say). */
  const underWay = new Map<string, Promise<void>>();
  let sweeping: Promise<void> | null = null;
  let closed = false;

  const settle = (requestId: string): Promise<void> => {
    const running = underWay.get(requestId);
    if (running) return running;
    const work = documents
      .settleSigning(requestId)
      .then(() => undefined)
      .catch((error: unknown) => {
        // The request stays waiting; the next sweep tries again.
        log.error({ err: error, requestId }, 'a signature could not be completed');
      })
      .finally(() => underWay.delete(requestId));
    underWay.set(requestId, work);
    return work;
  };

  const sweepOnce = async () => {
    const ids = await documents.waitingSigningRequests(SWEEP_BATCH);
    for (const id of ids) {
      if (closed) return;
      await settle(id);
    }
    for (const extra of options.sweeps ?? []) {
      if (closed) return;
      await extra();
    }
  };

  const sweep = (): Promise<void> => {
    if (closed) return Promise.resolve();
    sweeping ??= sweepOnce()
      .catch((error: unknown) => log.error({ err: error }, 'the signing sweep failed'))
      .finally(() => {
        sweeping = null;
      });
    return sweeping;
  };

  const unsubscribe = options.changes.subscribe((changes) => {
    if (closed) return;
    for (const change of changes) {
      if (isDecision(change)) void settle(change.recordId!);
      // Answers may have been told while the feed's connection was down.
      else if (change.resource === RESYNC.resource && change.action === RESYNC.action) void sweep();
    }
  });
  const timer = setInterval(() => void sweep(), options.intervalMs);
  timer.unref();

  return {
    sweep,
    close: async () => {
      closed = true;
      clearInterval(timer);
      unsubscribe();
      await Promise.allSettled([sweeping, ...underWay.values()]);
    },
  };
}
