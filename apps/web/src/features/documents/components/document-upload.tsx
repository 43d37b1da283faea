// Upload a PDF: an optional title (else the file's name), then drop or pick the file; on success the new
// document opens.
import { Alert, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_DOCUMENT_TITLE, type Document } from '@careplane/shared/documents/documents.contract';
import type { UploadProgress } from '../api/documents-files.ts';
import { useUploadDocument } from '../api/documents.mutations.ts';
import { PdfDropzone } from './pdf-dropzone.tsx';

export function DocumentUpload({ onUploaded }: { onUploaded: (document: Document) => void }) {
  const { t } = useTranslation('documents');
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
          notifications.show({ color: 'teal', message: t('upload.uploaded', { title: document.title }) });
          onUploaded(document);
        },
        onSettled: () => setProgress(null),
      },
    );
  };
  return (
    <Stack gap="sm">
      <TextInput
        label={t('upload.title')}
        description={t('upload.titleHint')}
        value={title}
        maxLength={MAX_DOCUMENT_TITLE}
        onChange={(event) => setTitle(event.currentTarget.value)}
        disabled={upload.isPending}
      />
      <PdfDropzone
        onFile={send}
        busy={upload.isPending}
        progress={progress}
        label={t('upload.dropLabel')}
        touchLabel={t('upload.tapLabel')}
        hint={t('upload.hint')}
      />
      {upload.isError ? (
        <Alert color="red" title={t('upload.failed')} role="alert">
          {upload.error.message}
        </Alert>
      ) : null}
    </Stack>
  );
}
