// The custody chain from the console: who is asking, an area's queue, a prescription's history, the status
// actions (a signing one answers 202 and is followed until the phone answers; a plain one goes with an
// Idempotency-Key, and is kept in the outbox when there is no network: decision 046) and the signed receipts.
import {
  QueryObserver,
  queryOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type { ListResponse } from '@careplane/shared/common/http';
import type { PrescriptionStatus } from '@careplane/shared/common/enums';
import {
  prescriptionTransitions,
  type PrescriptionAction,
} from '@careplane/shared/prescriptions/prescription-transitions';
import {
  prescriptionActionPath,
  prescriptionEndpoints,
  prescriptionHistoryPath,
  prescriptionReceiptPath,
  prescriptionSigningPath,
  prescriptionVerificationPath,
  prescriptionViewerPath,
  prescriptionChoicesPath,
  type Prescription,
  type PrescriptionChoices,
  type PrescriptionHistory,
  type PrescriptionReceipt,
  type PrescriptionSigningStarted,
  type PrescriptionSigningState,
  type PrescriptionVerification,
  type PrescriptionViewerAnswer,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { ApiError, api } from '@/lib/api-client.ts';
import { isKept, postAction, sendOrKeep, type ActionKept } from '@/lib/offline/action-outbox.ts';
import type { OutboxEntry } from '@/lib/offline/outbox.ts';
import { saveFile } from '@/lib/save-file.ts';

const root = ['prescription-custody'] as const;
/** A new prescription shows up in a queue within this time, without a reload. */
export const QUEUE_REFRESH_MS = 5_000;

export const custodyQueries = {
  viewer: () =>
    queryOptions({
      queryKey: [...root, 'viewer'],
      queryFn: () => api.get<PrescriptionViewerAnswer>(prescriptionViewerPath),
      staleTime: 60_000,
    }),
  /** What the doctor's prescription form offers: their centers' patients, the pharmacies, the couriers. */
  choices: () =>
    queryOptions({
      queryKey: [...root, 'choices'],
      queryFn: () => api.get<PrescriptionChoices>(prescriptionChoicesPath),
      staleTime: 60_000,
    }),
  /** One list of prescriptions by its filters (`status~ready`, `issuer.id~<id>`, …), newest first. */
  queue: (filters: readonly string[]) =>
    queryOptions({
      queryKey: [...root, 'queue', ...filters],
      queryFn: () =>
        api.get<ListResponse<Prescription>>(prescriptionEndpoints.list, {
          query: {
            filters: [...filters],
            relations: 'issuer,recipient,supplier,shipper,nurse,shipperDriver',
            sort: 'createdAt:desc',
            limit: 100,
          },
        }),
      refetchInterval: QUEUE_REFRESH_MS,
    }),
  history: (id: string) =>
    queryOptions({
      queryKey: [...root, 'history', id],
      queryFn: () => api.get<PrescriptionHistory>(prescriptionHistoryPath(id)),
    }),
  /** For anyone (no sign-in): the verification of the prescription's signed receipts. */
  verification: (id: string) =>
    queryOptions({
      queryKey: [...root, 'verification', id],
      queryFn: () =>
        api.get<PrescriptionVerification>(prescriptionVerificationPath(id), { authenticated: false }),
      retry: false,
    }),
  signing: (id: string, requestId: string, intervalSeconds: number) =>
    queryOptions({
      queryKey: [...root, 'signing', id, requestId],
      queryFn: () => api.get<PrescriptionSigningState>(prescriptionSigningPath(id, requestId)),
      refetchInterval: (query) =>
        query.state.data && query.state.data.status !== 'pending'
          ? false
          : Math.max(1, intervalSeconds) * 1000,
    }),
};

export type ActionAnswer = Prescription | PrescriptionSigningStarted | ActionKept;
export const isSigningStarted = (answer: ActionAnswer): answer is PrescriptionSigningStarted =>
  'requestId' in answer;

/** Refreshes every queue and history once something changed. */
export function useCustodyChanged() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: root });
}

export interface ActionHooks {
  /**
   * Told when a plain action went through, before the queues refresh: here rather than in `mutate`'s own
   * callbacks, which never run once the refresh has replaced the button that asked.
   */
  applied?: () => unknown;
  /**
   * Told when the phone approved a signing action (issue, pickup), before the queues refresh. It is followed
   * apart from the button: the live update that moves the prescription to another tab can replace the button
   * before its own poll sees the approval, and the notice must not go with it.
   */
  signed?: () => unknown;
  /**
   * Told when a signing action failed on the server after the phone was asked (another courier's pickup was
   * completed first, and this one ended with it): followed apart from the button, which the refresh removes.
   */
  failed?: (state: PrescriptionSigningState) => unknown;
  /** Told when a plain action was kept on the device for later. */
  kept?: (entry: OutboxEntry) => unknown;
  /**
   * Told when the server refused the action. Like `applied`, here rather than in `mutate`'s callbacks: a refusal
   * that comes because the prescription moved meanwhile is followed by a refresh that replaces the button.
   */
  refused?: (error: Error) => unknown;
  /** The action's label and what it is done to, kept with the action for its notices. */
  label: string;
  subject?: string | undefined;
  /** The status the prescription had on screen when the action was taken: it applies only from there. */
  status?: PrescriptionStatus | undefined;
}

/**
 * A plain action goes with a new Idempotency-Key, or is kept in the outbox for later (`sendOrKeep`: without a
 * network, or behind this user's actions still waiting).
 */
function plainAction(
  id: string,
  action: PrescriptionAction,
  hooks: ActionHooks,
  reason: string | undefined,
): Promise<ActionAnswer> {
  return sendOrKeep(
    {
      prescriptionId: id,
      action,
      label: hooks.label,
      subject: hooks.subject,
      reason,
      expectedStatus: hooks.status,
    },
    async (entry) => (await postAction(entry)) as Prescription,
  );
}

/**
 * Follows a signing request until the phone answers, whoever is still on screen: `signed` runs once on approval.
 * The button that asked reads the same query to show the code and the time left. Stops at any final answer, or
 * a little after the request expires.
 */
export function followSigning(
  client: QueryClient,
  id: string,
  started: PrescriptionSigningStarted,
  signed: () => unknown,
  failed: (state: PrescriptionSigningState) => unknown = () => undefined,
) {
  const observer = new QueryObserver(client, custodyQueries.signing(id, started.requestId, started.interval));
  // The observer tells its listener after subscribe has returned (TanStack batches notifications).
  const unsubscribe = observer.subscribe((result) => {
    const state = result.data;
    if (!state || state.status === 'pending') return;
    stop();
    if (state.status === 'signed') void signed();
    if (state.status === 'failed') void failed(state);
  });
  const timer = setTimeout(stop, (started.expiresIn + 30) * 1000);
  function stop() {
    clearTimeout(timer);
    unsubscribe();
  }
  return stop;
}

export function useAction(id: string, action: PrescriptionAction, hooks: ActionHooks) {
  const client = useQueryClient();
  const changed = useCustodyChanged();
  return useMutation({
    // Tried offline too, as every action is (the query client): a plain action is then kept, a signing one is
    // not offered (the button says why).
    // A hold or a return may say why (the button asks); the other actions are sent without a word.
    mutationFn: (reason?: string) =>
      prescriptionTransitions[action].signs
        ? api.post<ActionAnswer>(prescriptionActionPath(id, action))
        : plainAction(id, action, hooks, reason),
    onSuccess: async (answer) => {
      if (isSigningStarted(answer)) {
        followSigning(
          client,
          id,
          answer,
          async () => {
            await hooks.signed?.();
            await changed();
          },
          async (state) => {
            await hooks.failed?.(state);
            await changed();
          },
        );
        return;
      }
      if (isKept(answer)) return void hooks.kept?.(answer.kept);
      void hooks.applied?.();
      await changed();
    },
    onError: async (error) => {
      void hooks.refused?.(error);
      // Refused as the prescription stands now (another device moved it): show where it stands.
      if (error instanceof ApiError && error.status === 409) await changed();
    },
  });
}

/** Spec §8 names the failure; the file keeps the server's name ('document <timestamp>.pdf'). */
export async function downloadReceipt(id: string, receipt: PrescriptionReceipt) {
  const file = await api.download(prescriptionReceiptPath(id, receipt), { accept: 'application/pdf' });
  saveFile(file.blob, file.fileName ?? `document ${Date.now()}.pdf`);
}
