// Upload a PDF: an optional title (else the file's name), then drop or pick the file; on success the new
// document opens.
import { Alert, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { MAX_DOCUMENT_TITLE, type Document } from '@careplane/shared/documents/documents.contract';
import type { UploadProgress } from '../api/documents-files.ts';
import { useUploadDocument } from '../api/documents.mutations.ts';
import { PdfDropzone } from './pdf-dropzone.tsx';

export function DocumentUpload({ onUploaded }: { onUploaded: (document: Document) => void }) {
  const [title, setTitle] = useState('');
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const upload = useUploadDocument(setProgress);
  const send = (file: File) => {
    setProgress({ loaded: 0, total: file.size });
    upload.mutate(
      { file, ...(title.trim() ? { title: title.trim() } : {}) },
      {
        onSuccess: (document) => {
          setTitle('');
          notifications.show({ color: 'teal', message: `Uploaded "${document.title}".` });
          onUploaded(document);
        },
        onSettled: () => setProgress(null),
      },
    );
  };
  return (
    <Stack gap="sm">
      <TextInput
        label="Title"
        description="Optional: the file's name is used otherwise."
        value={title}
        maxLength={MAX_DOCUMENT_TITLE}
        onChange={(event) => setTitle(event.currentTarget.value)}
        disabled={upload.isPending}
      />
      <PdfDropzone
        onFile={send}
        busy={upload.isPending}
        progress={progress}
        label="Drop a PDF here, or click to choose one"
        hint="Stored with its SHA-256 fingerprint; only you see it until you share it."
      />
      {upload.isError ? (
        <Alert color="red" title="The document was not uploaded" role="alert">
          {upload.error.message}
        </Alert>
      ) : null}
    </Stack>
  );
}
