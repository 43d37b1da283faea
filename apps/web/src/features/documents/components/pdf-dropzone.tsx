// Drop a PDF here (or pick one): one file at a time, with the upload's progress below. The server decides
// what is a PDF by its content; the browser's check (the type, or a name ending .pdf when the system gives no
// type) only helps the picker, and a file it turns away is said so under the zone, by name.
import '@mantine/dropzone/styles.css';
import { Group, Progress, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UploadProgress } from '../api/documents-files.ts';

interface Props {
  onFile: (file: File) => void;
  /** A file was turned away: what was shown of the last one no longer applies (a verifier's verdict). */
  onRefuse?: () => void;
  busy: boolean;
  progress: UploadProgress | null;
  /** The call to action, e.g. "Drop a PDF to upload it". */
  label: string;
  /** The same where a finger picks (a phone has nothing to drop from): "Tap to choose a PDF". */
  touchLabel: string;
  hint: string;
}

export const formatBytes = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} kB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** What the zone takes: a PDF by its type, or by its name when the system names no type. */
const PDF_FILES = { 'application/pdf': ['.pdf'] };

export function PdfDropzone({ onFile, onRefuse, busy, progress, label, touchLabel, hint }: Props) {
  const { t } = useTranslation('documents');
  const call = useMediaQuery('(pointer: coarse)') === true ? touchLabel : label;
  const [refusal, setRefusal] = useState<string | null>(null);
  const refuse = (rejections: FileRejection[]) => {
    const several = rejections.some((rejection) =>
      rejection.errors.some((error) => error.code === 'too-many-files'),
    );
    setRefusal(
      several ? t('dropzone.oneAtATime') : t('dropzone.notPdf', { name: rejections[0]?.file.name ?? '' }),
    );
    onRefuse?.();
  };
  const percent = progress && progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;
  return (
    <Stack gap="xs">
      <Dropzone
        onDrop={(files) => {
          const [file] = files;
          setRefusal(null);
          if (file) onFile(file);
        }}
        onReject={refuse}
        accept={PDF_FILES}
        multiple={false}
        maxFiles={1}
        disabled={busy}
        aria-label={call}
        data-testid="pdf-dropzone"
      >
        <Group justify="center" mih={96} style={{ pointerEvents: 'none' }}>
          <Stack gap={4} align="center" ta="center">
            <Dropzone.Accept>
              <Text fw={600}>{t('dropzone.accept')}</Text>
            </Dropzone.Accept>
            <Dropzone.Reject>
              <Text fw={600} c="red">
                {t('dropzone.reject')}
              </Text>
            </Dropzone.Reject>
            <Dropzone.Idle>
              <Text fw={600}>{call}</Text>
            </Dropzone.Idle>
            <Text size="sm" c="dimmed">
              {hint}
            </Text>
          </Stack>
        </Group>
      </Dropzone>
      {refusal ? (
        <Text size="sm" c="red.8" role="alert">
          {refusal}
        </Text>
      ) : null}
      {busy && progress ? (
        <Stack gap={2} aria-live="polite">
          <Progress value={percent} animated aria-label={t('dropzone.progress')} />
          <Text size="xs" c="dimmed">
            {percent < 100
              ? t('dropzone.sending', {
                  loaded: formatBytes(progress.loaded),
                  total: formatBytes(progress.total),
                })
              : t('dropzone.checking')}
          </Text>
        </Stack>
      ) : null}
    </Stack>
  );
}
