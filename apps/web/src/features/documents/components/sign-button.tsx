// Sign with my phone: asks the caller's own authenticator, shows the code to compare and the time left on the
// button, and follows the phone's answer live (polling the signing state) until it is signed, denied or expired.
import { Alert, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import i18next from 'i18next';
import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { Document, SigningStarted } from '@careplane/shared/documents/documents.contract';
import { useRequestSignature, useSignatureCompleted } from '../api/documents.mutations.ts';
import { documentQueries } from '../api/documents.queries.ts';
import { Fingerprint } from './document-status.tsx';

const answers = {
  denied: () => i18next.t('documents:sign.denied'),
  expired: () => i18next.t('documents:sign.expired'),
} as const;

function useSecondsLeft(until: number | null) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  return until === null ? null : Math.max(0, Math.round((until - now) / 1000));
}

function Following({
  document,
  started,
  onDone,
}: {
  document: Document;
  started: SigningStarted & { until: number };
  onDone: (outcome: string | null) => void;
}) {
  const { t } = useTranslation('documents');
  const completed = useSignatureCompleted();
  const state = useQuery(documentQueries.signing(document.id, started.requestId, started.interval));
  const left = useSecondsLeft(started.until);
  const status = state.data?.status ?? 'pending';

  useEffect(() => {
    if (!state.data) return;
    if (state.data.status === 'signed' && state.data.document) {
      completed(state.data.document);
      onDone(null);
    } else if (state.data.status === 'denied' || state.data.status === 'expired') {
      onDone(answers[state.data.status]());
    } else if (state.data.status === 'failed') {
      onDone(state.data.message ?? t('sign.failed'));
    }
  }, [state.data, completed, onDone, t]);

  return (
    <Stack gap="xs" aria-live="polite">
      {/* Not a disabled button: the code is what the signer compares on the phone, so it reads at full contrast
          and wraps on a narrow screen (as the prescriptions' signing does). */}
      <Paper
        withBorder
        radius="sm"
        px="sm"
        py={6}
        bg="var(--mantine-primary-color-light)"
        data-testid="signing-state"
      >
        <Group gap="xs" wrap="nowrap" align="center">
          {status === 'pending' ? <Loader size="xs" type="dots" aria-hidden /> : null}
          <Text size="sm" fw={600} lh={1.55}>
            {left !== null && left > 0
              ? t('sign.waitingLeft', { code: started.bindingMessage, seconds: left })
              : t('sign.waiting', { code: started.bindingMessage })}
          </Text>
        </Group>
      </Paper>
      <Text size="sm">
        <Trans
          t={t}
          i18nKey={document.file ? 'sign.instructions' : 'sign.instructionsNoFile'}
          values={{ code: started.bindingMessage }}
          components={{
            code: <Text span fw={700} ff="monospace" data-testid="signing-binding-message" />,
            fingerprint: document.file ? <Fingerprint sha256={document.file.sha256} /> : <></>,
          }}
        />
      </Text>
      {state.isError ? (
        <Text size="xs" c="red">
          {t('sign.checkFailed', { message: state.error.message })}
        </Text>
      ) : null}
    </Stack>
  );
}

export function SignButton({ document }: { document: Document }) {
  const { t } = useTranslation('documents');
  const request = useRequestSignature(document.id);
  const [started, setStarted] = useState<(SigningStarted & { until: number }) | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);

  if (started) {
    return (
      <Following
        document={document}
        started={started}
        onDone={(message) => {
          setStarted(null);
          setOutcome(message);
        }}
      />
    );
  }
  return (
    <Stack gap="xs">
      <Group>
        <Button
          onClick={() =>
            request.mutate(undefined, {
              onSuccess: (answer) => {
                setOutcome(null);
                setStarted({ ...answer, until: Date.now() + answer.expiresIn * 1000 });
              },
            })
          }
          loading={request.isPending}
        >
          {t('sign.button')}
        </Button>
      </Group>
      {request.isError ? (
        <Alert color="red" title={t('sign.notAsked')} role="alert">
          {request.error.message}
        </Alert>
      ) : null}
      {outcome ? (
        <Alert color="yellow" role="status">
          {outcome}
        </Alert>
      ) : null}
    </Stack>
  );
}
