// What changes documents: each mutation invalidates through documentQueries.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  documentEndpoints,
  type Document,
  type SigningStarted,
} from '@careplane/shared/documents/documents.contract';
import { api } from '@/lib/api-client.ts';
import { documentQueries } from './documents.queries.ts';
import { uploadDocument, type UploadProgress } from './documents-files.ts';

export function useUploadDocument(onProgress: (progress: UploadProgress) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, title }: { file: File; title?: string }) => uploadDocument(file, title, onProgress),
    onSuccess: (document) => {
      queryClient.setQueryData(documentQueries.detail(document.id).queryKey, document);
      return queryClient.invalidateQueries({ queryKey: documentQueries.lists() });
    },
  });
}

export function useShareDocument(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userIds: string[]) => api.post<Document>(documentEndpoints.share(id), { userIds }),
    onSuccess: (document) => {
      queryClient.setQueryData(documentQueries.detail(id).queryKey, document);
      return queryClient.invalidateQueries({ queryKey: documentQueries.lists() });
    },
  });
}

export function useRequestSignature(id: string) {
  return useMutation({
    mutationFn: () => api.post<SigningStarted>(documentEndpoints.sign(id)),
  });
}

export function useDeleteDocument(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<void>(documentEndpoints.item(id)),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: documentQueries.detail(id).queryKey });
      return queryClient.invalidateQueries({ queryKey: documentQueries.lists() });
    },
  });
}

/** After the phone signed: the document and every list that shows it change. */
export function useSignatureCompleted() {
  const queryClient = useQueryClient();
  return (document: Document) => {
    queryClient.setQueryData(documentQueries.detail(document.id).queryKey, document);
    void queryClient.invalidateQueries({ queryKey: documentQueries.lists() });
  };
}
