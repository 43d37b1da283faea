// Prescriptions: the query-options factory and the download of a signed receipt.
import { useMutation } from '@tanstack/react-query';
import {
  prescriptionEndpoints,
  type Prescription,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { api } from '@/lib/api-client.ts';
import { createResourceQueries } from '@/lib/resource-kit/queries.ts';
import { saveFile } from '@/lib/save-file.ts';

export const prescriptionQueries = createResourceQueries<Prescription>(
  'prescriptions',
  prescriptionEndpoints,
);

/** Spec §7: the signed document, saved as 'document {timestamp}.pdf'. */
export const signedDocumentPath = (documentId: string) =>
  `/api/documents/${encodeURIComponent(documentId)}/download/signed`;

export function useDownloadSignedDocument() {
  return useMutation({
    mutationFn: async (documentId: string) => {
      const file = await api.download(signedDocumentPath(documentId), { accept: 'application/pdf' });
      saveFile(file.blob, `document ${Date.now()}.pdf`);
    },
  });
}
