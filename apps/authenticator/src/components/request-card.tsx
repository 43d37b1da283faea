// One request waiting for the user's decision: who asks, the code to compare, what is asked. A document to
// sign shows its title and its SHA-256 to compare with the console; it can be approved only when what the
// phone would sign is a document signature for this phone's certificate (checkDocumentSignRequest).
import { Alert, Badge, Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import {
  checkDocumentSignRequest,
  isDocumentSignRequest,
  type DocumentSignDetails,
  type PendingRequest,
} from '@careplane/shared/authenticator/protocol';
import { formatDateTime, shortSha256 } from '@careplane/shared/common/formats';
import { formatRemaining, useNow } from '../lib/use-now.ts';
import { displayName, type StoredIdentity } from '../lib/vault.ts';

interface Props {
  request: PendingRequest;
  identity: StoredIdentity;
  onDecide: (decision: 'approve' | 'deny') => Promise<void>;
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <div>{children}</div>
    </div>
  );
}

type DocumentCheck = { ok: true; details: DocumentSignDetails } | { ok: false; problem: string } | null;

/** Checks a document-signing request before it may be approved; null while checking or for other requests. */
function useDocumentCheck(request: PendingRequest, keyId: string): DocumentCheck {
  const [check, setCheck] = useState<DocumentCheck>(null);
  useEffect(() => {
    if (!isDocumentSignRequest(request)) return;
    let current = true;
    checkDocumentSignRequest(request, keyId).then(
      ({ details }) => current && setCheck({ ok: true, details }),
      (error: unknown) =>
        current && setCheck({ ok: false, problem: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [request, keyId]);
  return check;
}

function DocumentFields({ details }: { details: DocumentSignDetails }) {
  const { t } = useTranslation();
  return (
    <>
      <Field label={t('request.document')}>
        <Text fw={600} style={{ overflowWrap: 'anywhere' }} data-testid="document-title">
          {details.title}
        </Text>
      </Field>
      <Field label={t('request.fingerprint')}>
        <Text ff="monospace" fw={700} data-testid="document-sha256">
          {shortSha256(details.documentSha256)}
        </Text>
        <Text size="sm">{t('request.compareFingerprint')}</Text>
      </Field>
      <Field label={t('request.signingTime')}>
        <Text>{formatDateTime(details.signingTime)}</Text>
      </Field>
    </>
  );
}

export function RequestCard({ request, identity, onDecide }: Props) {
  const { t } = useTranslation();
  const now = useNow();
  const titleId = useId();
  const [busy, setBusy] = useState<'approve' | 'deny' | null>(null);
  const login = request.kind === 'login';
  const documentSign = isDocumentSignRequest(request);
  const check = useDocumentCheck(request, identity.keyId);
  const client = request.clientName;
  const title = login
    ? t('request.signInTitle', { client })
    : documentSign
      ? t('request.documentTitle', { client })
      : t('request.approvalTitle', { client });

  const decide = async (decision: 'approve' | 'deny') => {
    setBusy(decision);
    try {
      await onDecide(decision);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card withBorder shadow="sm" padding="lg" component="article" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Badge color={login ? 'cyan' : 'grape'} variant="light" size="lg">
            {login
              ? t('request.signInBadge')
              : documentSign
                ? t('request.signatureBadge')
                : t('request.authorizationBadge')}
          </Badge>
          <Text size="sm" c="dimmed">
            {t('request.expiresIn', { time: formatRemaining(request.expiresAt, now) })}
          </Text>
        </Group>
        <Title order={3} id={titleId} size="h4">
          {title}
        </Title>
        <Text size="sm">
          <Trans
            i18nKey="request.as"
            values={{ name: displayName(identity), username: identity.username }}
            components={{ strong: <strong /> }}
          />
        </Text>

        {request.bindingMessage ? (
          <Field label={login ? t('request.codeWhereYouSignIn') : t('request.codeThatAsks')}>
            <Text size="xl" fw={700} ff="monospace" data-testid="binding-message">
              {request.bindingMessage}
            </Text>
            <Text size="sm">{t('request.sameCode')}</Text>
          </Field>
        ) : (
          <Text size="sm">{t('request.noCode')}</Text>
        )}

        <Field label={t('request.requestedBy')}>
          <Text>
            {request.clientName}{' '}
            <Text span c="dimmed" size="sm">
              ({request.clientId})
            </Text>
          </Text>
        </Field>

        {documentSign ? (
          check?.ok ? (
            <DocumentFields details={check.details} />
          ) : check ? (
            <Alert color="red" title={t('request.cannotSign')} role="alert">
              {t('request.cannotSignDetail', { problem: check.problem })}
            </Alert>
          ) : (
            <Text size="sm">{t('request.checking')}</Text>
          )
        ) : login ? (
          <Field label={t('request.asked')}>
            <Text>
              {text(request.details.scope)
                ? t('request.signInScope', { scope: text(request.details.scope) })
                : t('request.signIn')}
            </Text>
          </Field>
        ) : (
          <>
            <Field label={t('request.action')}>
              <Text fw={600}>{text(request.details.action) ?? t('request.unnamedAction')}</Text>
            </Field>
            {text(request.details.description) && (
              <Field label={t('request.description')}>
                <Text>{text(request.details.description)}</Text>
              </Field>
            )}
            {text(request.details.resource) && (
              <Field label={t('request.resource')}>
                <Text style={{ overflowWrap: 'anywhere' }}>{text(request.details.resource)}</Text>
              </Field>
            )}
            {text(request.details.digest) && (
              <Field label={t('request.digest')}>
                <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {text(request.details.digest)}
                </Code>
              </Field>
            )}
          </>
        )}

        <Group grow mt="xs">
          <Button
            color="red"
            variant="outline"
            size="lg"
            loading={busy === 'deny'}
            disabled={busy !== null}
            onClick={() => void decide('deny')}
          >
            {t('request.deny')}
          </Button>
          <Button
            color="teal"
            size="lg"
            loading={busy === 'approve'}
            disabled={busy !== null || (documentSign && !check?.ok)}
            onClick={() => void decide('approve')}
          >
            {documentSign ? t('request.sign') : t('request.approve')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
