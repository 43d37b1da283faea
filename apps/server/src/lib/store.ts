// How services reach the database: reads on `db`, writes through `write()`, which runs one transaction,
// records every change in the audit log inside it and tells the change feed after it commits.
import type { Database, Executor } from '@/db/client.js';
import { insertAuditEntry, type ActionContext, type AuditRecord } from './audit.js';
import type { Change, ChangeFeed } from './changes.js';

/** One write in progress: its transaction and its audit trail. */
export interface WriteScope {
  tx: Executor;
  context: ActionContext;
  /**
   * Records the change in the audit log (this transaction) and queues its change for after the commit.
   * `as` names another actor than the write's context (a first sign-in acts as the user it creates).
   */
  audit(entry: AuditRecord, as?: ActionContext): Promise<void>;
  /** Queues a change that has no audit row of its own (a revoked sign-in), told like the audited ones. */
  tell(change: Omit<Change, 'at' | 'actorUserId'>): void;
}

export interface Store {
  db: Database;
  changes: ChangeFeed;
  /** Runs `work` in one transaction; its audited changes are published once it has committed. */
  write<T>(context: ActionContext, work: (scope: WriteScope) => Promise<T>): Promise<T>;
}

export function createStore(db: Database, changes: ChangeFeed): Store {
  return {
    db,
    changes,
    async write(context, work) {
      const pending: Change[] = [];
      const result = await db.transaction(async (tx) => {
        const outcome = await work({
          tx,
          context,
          audit: async (entry, as = context) => {
            await insertAuditEntry(tx, as, entry);
            pending.push({
              resource: entry.resource,
              action: entry.action,
              recordId: entry.recordId,
              actorUserId: as.caller?.userId ?? null,
              at: Date.now(),
            });
          },
          tell: (change) => {
            pending.push({ ...change, actorUserId: context.caller?.userId ?? null, at: Date.now() });
          },
        });
        // Other processes hear of the changes when this transaction commits, and only then.
        await changes.relay(tx, pending);
        return outcome;
      });
      changes.publish(pending);
      return result;
    },
  };
}
