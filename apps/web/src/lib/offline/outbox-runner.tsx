// Sends the kept actions (decision 046): when the signed-in console starts, when the browser is back online,
// and every little while as long as some wait (the browser's online flag can be wrong). Each one sent, refused
// or in conflict gets a notice; a conflict's stays until closed, so nobody misses that it was not applied.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { notify } from '@/lib/notify.ts';
import { useSession } from '@/lib/session.ts';
import { actionOutbox } from './action-outbox.ts';
import type { FlushResult } from './outbox.ts';
import { isOnline } from './online.ts';
import { offlineTexts } from './texts.ts';

export const RETRY_EVERY_MS = 15_000;

function announce({ entry, outcome }: FlushResult) {
  switch (outcome.kind) {
    case 'sent':
      notify({ color: 'teal', message: offlineTexts.sent(entry.label, entry.subject) });
      return;
    case 'conflict':
      notify({
        color: 'red',
        title: offlineTexts.conflictTitle,
        message: offlineTexts.conflict(entry.label, outcome.status, entry.subject),
        autoClose: false,
      });
      return;
    case 'rejected':
      notify({
        color: 'red',
        title: offlineTexts.rejectedTitle,
        // A closing note would go with the alert it was written for: the notice keeps it.
        message:
          entry.kind === 'alert' && entry.note
            ? offlineTexts.withNote(
                offlineTexts.rejected(entry.label, outcome.message, entry.subject),
                entry.note,
              )
            : offlineTexts.rejected(entry.label, outcome.message, entry.subject),
        autoClose: false,
      });
      return;
    case 'retry':
      return;
  }
}

export function OutboxRunner() {
  const userId = useSession((state) => state.user?.id);
  const client = useQueryClient();
  useEffect(() => {
    if (!userId) return;
    // Every send is told, whoever asked for it: this runner, or an action taken while others waited.
    const stopListening = actionOutbox.onSent((results) => {
      results.forEach(announce);
      if (results.some((result) => result.outcome.kind !== 'retry')) void client.invalidateQueries();
    });
    const sendNow = () => {
      if (isOnline()) void actionOutbox.flush(userId).catch(() => undefined);
    };
    void actionOutbox
      .load()
      .then(sendNow)
      .catch(() => undefined);
    window.addEventListener('online', sendNow);
    const timer = window.setInterval(() => {
      if (actionOutbox.entries().some((entry) => entry.userId === userId)) sendNow();
    }, RETRY_EVERY_MS);
    return () => {
      stopListening();
      window.removeEventListener('online', sendNow);
      window.clearInterval(timer);
    };
  }, [userId, client]);
  return null;
}
