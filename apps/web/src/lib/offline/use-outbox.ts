// The kept actions of the signed-in user, for the banner, the prescriptions' cards and the alerts.
import { useSyncExternalStore } from 'react';
import { useSession } from '@/lib/session.ts';
import { actionOutbox } from './action-outbox.ts';
import type { KeptAlertAction, KeptPrescriptionAction, OutboxEntry } from './outbox.ts';

export function useKeptActions(): readonly OutboxEntry[] {
  const userId = useSession((state) => state.user?.id);
  const entries = useSyncExternalStore(actionOutbox.subscribe, actionOutbox.entries, actionOutbox.entries);
  return userId ? entries.filter((entry) => entry.userId === userId) : [];
}

/** The kept actions on one prescription, in the order they will be sent. */
export function useKeptActionsOf(prescriptionId: string): readonly KeptPrescriptionAction[] {
  return useKeptActions().filter(
    (entry): entry is KeptPrescriptionAction =>
      entry.kind !== 'alert' && entry.prescriptionId === prescriptionId,
  );
}

/** The kept actions on one alert (decision 107), in the order they will be sent. */
export function useKeptAlertActionsOf(alertId: string): readonly KeptAlertAction[] {
  return useKeptActions().filter(
    (entry): entry is KeptAlertAction => entry.kind === 'alert' && entry.alertId === alertId,
  );
}
