// The custody chain from the console: who is asking, an area's queue, a prescription's history, the status
// actions (a signing one answers 202 and is followed until the phone answers) and the signed receipts.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListResponse } from '@careplane/shared/common/http';
import type { PrescriptionAction } from '@careplane/shared/prescriptions/prescription-transitions';
import {
  prescriptionActionPath,
  prescriptionEndpoints,
  prescriptionHistoryPath,
  prescriptionReceiptPath,
  prescriptionSigningPath,
  prescriptionVerificationPath,
  prescriptionViewerPath,
  type Prescription,
  type PrescriptionHistory,
  type PrescriptionReceipt,
  type PrescriptionSigningStarted,
  type PrescriptionSigningState,
  type PrescriptionVerification,
  type PrescriptionViewerAnswer,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { api } from '@/lib/api-client.ts';
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

export type ActionAnswer = Prescription | PrescriptionSigningStarted;
export const isSigningStarted = (answer: ActionAnswer): answer is PrescriptionSigningStarted =>
  'requestId' in answer;

/** Refreshes every queue and history once something changed. */
export function useCustodyChanged() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: root });
}

/**
 * `applied` is told when a plain action went through, before the queues refresh: here rather than in
 * `mutate`'s own callbacks, which never run once the refresh has replaced the button that asked.
 */
export function useAction(id: string, action: PrescriptionAction, applied?: () => unknown) {
  const changed = useCustodyChanged();
  return useMutation({
    mutationFn: () => api.post<ActionAnswer>(prescriptionActionPath(id, action)),
    onSuccess: async (answer) => {
      if (isSigningStarted(answer)) return;
      void applied?.();
      await changed();
    },
  });
}

/** Spec §8 names the failure; the file keeps the server's name ('document <timestamp>.pdf'). */
export async function downloadReceipt(id: string, receipt: PrescriptionReceipt) {
  const file = await api.download(prescriptionReceiptPath(id, receipt), { accept: 'application/pdf' });
  saveFile(file.blob, file.fileName ?? `document ${Date.now()}.pdf`);
}
