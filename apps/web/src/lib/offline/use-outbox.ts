// The kept actions of the signed-in user, for the banner and the cards.
import { useSyncExternalStore } from 'react';
import { useSession } from '@/lib/session.ts';
import { actionOutbox } from './action-outbox.ts';
import type { OutboxEntry } from './outbox.ts';

export function useKeptActions(): readonly OutboxEntry[] {
  const userId = useSession((state) => state.user?.id);
  const entries = useSyncExternalStore(actionOutbox.subscribe, actionOutbox.entries, actionOutbox.entries);
  return userId ? entries.filter((entry) => entry.userId === userId) : [];
}

/** The kept actions on one prescription, in the order they will be sent. */
export function useKeptActionsOf(prescriptionId: string): readonly OutboxEntry[] {
  return useKeptActions().filter((entry) => entry.prescriptionId === prescriptionId);
}
