// Verify a document, for anyone (no sign-in): drop a PDF, read the verdict and each signature's checks.
import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { documentEndpoints } from '@careplane/shared/documents/documents.contract';
import { apiUrl } from '@/lib/api-client.ts';
import { verifyDocument, type UploadProgress } from '../api/documents-files.ts';
import { PdfDropzone } from './pdf-dropzone.tsx';
import { VerificationReportView } from './verification-report.tsx';

export function VerifyPanel() {
  const { t } = useTranslation('documents');
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [fileName, setFileName] = useState('');
  const verify = useMutation({
    mutationFn: (file: File) => verifyDocument(file, setProgress),
    onSettled: () => setProgress(null),
  });
  return (
    <Stack gap="lg">
      <PdfDropzone
        onFile={(file) => {
          setFileName(file.name);
          setProgress({ loaded: 0, total: file.size });
          verify.mutate(file);
        }}
        // A refused file clears the last verdict: it was of another file, and beside this one it would overstate.
        onRefuse={() => verify.reset()}
        busy={verify.isPending}
        progress={progress}
        label={t('verify.dropLabel')}
        touchLabel={t('verify.tapLabel')}
        hint={t('verify.hint')}
      />
      {verify.isError ? (
        <Alert color="red" title={t('verify.failed')} role="alert">
          {verify.error.message}
        </Alert>
      ) : null}
      {verify.data ? <VerificationReportView report={verify.data} fileName={fileName} /> : null}
      <Text size="xs" c="dimmed">
        <Trans
          t={t}
          i18nKey="verify.caNote"
          components={{
            anchor: (
              <Anchor
                href={apiUrl(documentEndpoints.caCertificate)}
                download="careplane-document-signing-ca.pem"
                size="xs"
                underline="always"
              />
            ),
          }}
        />
      </Text>
    </Stack>
  );
}
