// Verify a document, for anyone (no sign-in): drop a PDF, read the verdict and each signature's checks.
import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { documentEndpoints } from '@careplane/shared/documents/documents.contract';
import { apiUrl } from '@/lib/api-client.ts';
import { verifyDocument, type UploadProgress } from '../api/documents-files.ts';
import { PdfDropzone } from './pdf-dropzone.tsx';
import { VerificationReportView } from './verification-report.tsx';

export function VerifyPanel() {
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
        busy={verify.isPending}
        progress={progress}
        label="Drop a PDF here, or click to choose one"
        hint="The file is checked and then forgotten: nothing is stored."
      />
      {verify.isError ? (
        <Alert color="red" title="The file could not be verified" role="alert">
          {verify.error.message}
        </Alert>
      ) : null}
      {verify.data ? <VerificationReportView report={verify.data} fileName={fileName} /> : null}
      <Text size="xs" c="dimmed">
        Signatures are checked against the Careplane document signing CA, never against a certificate the file
        brings along. Other tools can check them too with{' '}
        <Anchor
          href={apiUrl(documentEndpoints.caCertificate)}
          download="careplane-document-signing-ca.pem"
          size="xs"
          underline="always"
        >
          the CA certificate
        </Anchor>
        .
      </Text>
    </Stack>
  );
}
