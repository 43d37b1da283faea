// The authenticator: the identities on this phone, the requests waiting for them (polled), QR sign-in, and
// enrollment. Every call goes through the shared authenticator protocol module.
import { Alert, Anchor, Card, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useDocumentVisibility } from '@mantine/hooks';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  generateAuthenticatorKey,
  newestFirst,
  type AuthenticatorClient,
  type PendingRequest,
} from '@careplane/shared/authenticator/protocol';
import { ClaimCard } from './components/claim-card.tsx';
import { LanguageSwitch } from './components/language-switch.tsx';
import { RequestCard } from './components/request-card.tsx';
import { ScanPanel } from './components/scan-panel.tsx';
import { classifyInput, type Launch } from './lib/launch.ts';
import { createClient, explain, hostOf, loadIssuer } from './lib/server.ts';
import { displayName, keyOf, vault, type StoredIdentity } from './lib/vault.ts';
import { currentLanguage, i18n } from './i18n/i18n.ts';

const POLL_MS = 3000;
const KEY_LABEL = 'Careplane Authenticator (browser)';

interface Notice {
  tone: 'success' | 'error' | 'info';
  text: string;
}
interface Waiting {
  identity: StoredIdentity;
  request: PendingRequest;
}

const toneColor = { success: 'teal', error: 'red', info: 'blue' } as const;
/** Dates as each language writes them: Thai in the Buddhist era. */
const locales = { en: undefined, th: 'th-TH' } as const;

export function App({ launch }: { launch: Launch }) {
  const { t } = useTranslation();
  const [issuer, setIssuer] = useState<string | null>(null);
  const [identities, setIdentities] = useState<StoredIdentity[] | null>(null);
  const [waiting, setWaiting] = useState<Waiting[]>([]);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [claimLink, setClaimLink] = useState<string | null>(null);
  const [enrolling, setEnrolling] = useState(false);
  const [pollProblem, setPollProblem] = useState<string | null>(null);
  const visibility = useDocumentVisibility();
  const client = useMemo<AuthenticatorClient | null>(() => (issuer ? createClient(issuer) : null), [issuer]);
  const launched = useRef(false);

  const reloadIdentities = useCallback(async () => setIdentities(await vault.list()), []);

  useEffect(() => {
    void (async () => {
      setIssuer(await loadIssuer());
      try {
        await reloadIdentities();
      } catch {
        setIdentities([]);
        setNotice({ tone: 'error', text: i18n.t('notice.storageBlocked') });
      }
    })();
  }, [reloadIdentities]);

  const enroll = useCallback(
    async (code: string, linkIssuer?: string) => {
      if (!client || !issuer) return;
      if (linkIssuer && linkIssuer.replace(/\/$/, '') !== issuer) {
        setNotice({
          tone: 'error',
          text: t('notice.otherServer', { linkHost: hostOf(linkIssuer), host: hostOf(issuer) }),
        });
        return;
      }
      setEnrolling(true);
      setNotice({ tone: 'info', text: t('notice.creatingKey') });
      try {
        // A new non-extractable P-256 key: the private half never leaves this browser.
        const keyPair = await generateAuthenticatorKey(false);
        const result = await client.enroll(code, keyPair, KEY_LABEL);
        await vault.put({
          keyId: result.keyId,
          issuer: result.issuer,
          username: result.username,
          firstName: result.firstName,
          lastName: result.lastName,
          privateKey: keyPair.privateKey as CryptoKey,
          enrolledAt: new Date().toISOString(),
        });
        await reloadIdentities();
        setNotice({
          tone: 'success',
          text: t('notice.added', {
            name: displayName(result),
            username: result.username,
          }),
        });
      } catch (error) {
        setNotice({ tone: 'error', text: t('notice.notAdded', { reason: explain(error) }) });
      } finally {
        setEnrolling(false);
      }
    },
    [client, issuer, reloadIdentities, t],
  );

  const refresh = useCallback(async () => {
    if (!client || !identities) return;
    const mine = identities.filter((identity) => identity.issuer === client.issuer);
    const results = await Promise.allSettled(
      mine.map(async (identity) =>
        (await client.pending(keyOf(identity))).map((request) => ({ identity, request })),
      ),
    );
    const found: Waiting[] = [];
    const problems: string[] = [];
    results.forEach((result, index) => {
      if (result.status === 'fulfilled') found.push(...result.value);
      else problems.push(`${mine[index]!.username}: ${explain(result.reason)}`);
    });
    // The server's order across every identity: the request the person just started is on top, above any a
    // stranger started earlier with their identifier.
    found.sort((a, b) => newestFirst(a.request, b.request));
    setWaiting(found);
    setPollProblem(problems.length ? problems.join(' · ') : null);
  }, [client, identities]);

  // Poll while the app is in front.
  useEffect(() => {
    if (!client || !identities?.length || visibility !== 'visible') return;
    let stopped = false;
    let timer = 0;
    const loop = async () => {
      await refresh();
      if (!stopped) timer = window.setTimeout(() => void loop(), POLL_MS);
    };
    void loop();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [client, identities, visibility, refresh]);

  // The link the app was opened with, once.
  useEffect(() => {
    if (launched.current || !client || identities === null) return;
    launched.current = true;
    if (launch.kind === 'enroll') void enroll(launch.code, launch.issuer);
    else if (launch.kind === 'qr') setClaimLink(launch.link);
    else if (launch.kind === 'invalid')
      setNotice({ tone: 'error', text: t('notice.badLink', { reason: launch.message }) });
  }, [client, identities, launch, enroll, t]);

  const decide = async ({ identity, request }: Waiting, decision: 'approve' | 'deny') => {
    if (!client) return;
    try {
      await client.decide(keyOf(identity), request, decision);
      setWaiting((current) => current.filter((item) => item.request.id !== request.id));
      const login = request.kind === 'login';
      const text =
        decision === 'approve'
          ? t(login ? 'notice.approvedSignIn' : 'notice.approvedRequest', { client: request.clientName })
          : t(login ? 'notice.deniedSignIn' : 'notice.deniedRequest', { client: request.clientName });
      setNotice({ tone: 'success', text });
    } catch (error) {
      setNotice({ tone: 'error', text: t('notice.notAccepted', { reason: explain(error) }) });
      await refresh().catch(() => undefined);
    }
  };

  const claim = async (identity: StoredIdentity) => {
    if (!client || !claimLink) return;
    try {
      const result = await client.claimQr(keyOf(identity), claimLink);
      setClaimLink(null);
      setNotice({
        tone: 'info',
        text: result.bindingMessage
          ? t('notice.signInStartedWithCode', { code: result.bindingMessage })
          : t('notice.signInStarted'),
      });
      await refresh();
    } catch (error) {
      setClaimLink(null);
      setNotice({
        tone: 'error',
        text:
          error instanceof Error && 'status' in error && error.status === 404
            ? t('notice.qrExpired')
            : t('notice.signInFailed', { reason: explain(error) }),
      });
    }
  };

  const onInput = (text: string) => {
    try {
      const input = classifyInput(text);
      if (input.kind === 'qr') setClaimLink(input.link);
      else void enroll(input.code, input.issuer);
    } catch (error) {
      setNotice({ tone: 'error', text: explain(error) });
    }
  };

  const remove = async (identity: StoredIdentity) => {
    if (!window.confirm(t('app.removeConfirm', { username: identity.username }))) return;
    await vault.remove(identity.keyId);
    await reloadIdentities();
  };

  if (!issuer || identities === null) {
    return (
      <Container size="xs" py="xl">
        <Group justify="center">
          <Loader aria-label={t('app.loading')} />
        </Group>
      </Container>
    );
  }

  const hasIdentities = identities.length > 0;

  return (
    <Container size="xs" px="md" py="md">
      <Stack gap="lg">
        <Group component="header" justify="space-between" align="flex-start" wrap="nowrap">
          <div style={{ minWidth: 0 }}>
            <Title order={1} size="h2">
              {t('app.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('app.forHost', { host: hostOf(issuer) })}
            </Text>
          </div>
          <LanguageSwitch />
        </Group>

        <div role="status" aria-live="polite">
          {notice && (
            <Alert
              color={toneColor[notice.tone]}
              withCloseButton
              closeButtonLabel={t('app.dismiss')}
              onClose={() => setNotice(null)}
            >
              {notice.text}
            </Alert>
          )}
        </div>

        {claimLink && (
          <ClaimCard
            link={claimLink}
            issuer={issuer}
            identities={identities}
            onConfirm={claim}
            onCancel={() => setClaimLink(null)}
          />
        )}

        {hasIdentities && (
          <section aria-labelledby="requests-title">
            <Title order={2} size="h3" id="requests-title" mb="sm">
              {t('app.requests')}
            </Title>
            {pollProblem && (
              <Alert color="orange" mb="sm">
                {pollProblem}
              </Alert>
            )}
            {waiting.length === 0 ? (
              <Text c="dimmed">{t('app.nothingWaiting')}</Text>
            ) : (
              <Stack gap="md">
                {waiting.map((item) => (
                  <RequestCard
                    key={item.request.id}
                    request={item.request}
                    identity={item.identity}
                    onDecide={(decision) => decide(item, decision)}
                  />
                ))}
              </Stack>
            )}
          </section>
        )}

        {hasIdentities && (
          <section aria-labelledby="qr-title">
            <Title order={2} size="h3" id="qr-title" mb="sm">
              {t('app.qrTitle')}
            </Title>
            <ScanPanel
              onResult={onInput}
              pasteLabel={t('app.signInLink')}
              pasteDescription={t('app.signInLinkDescription')}
              submitLabel={t('app.openLink')}
            />
          </section>
        )}

        <section aria-labelledby="identities-title">
          <Title order={2} size="h3" id="identities-title" mb="sm">
            {hasIdentities ? t('app.identitiesTitle') : t('app.addIdentityTitle')}
          </Title>
          <Stack gap="sm">
            {identities.map((identity) => (
              <Card key={identity.keyId} withBorder padding="md">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <div style={{ minWidth: 0 }}>
                    <Text fw={600}>{displayName(identity)}</Text>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {identity.username}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t('app.addedOn', {
                        host: hostOf(identity.issuer),
                        date: new Date(identity.enrolledAt).toLocaleDateString(locales[currentLanguage()]),
                      })}
                    </Text>
                  </div>
                  <Anchor
                    component="button"
                    type="button"
                    size="sm"
                    c="red"
                    onClick={() => void remove(identity)}
                    aria-label={t('app.removeLabel', { username: identity.username })}
                  >
                    {t('app.remove')}
                  </Anchor>
                </Group>
              </Card>
            ))}
            <Card withBorder padding="md">
              <Stack gap="xs">
                {!hasIdentities && <Text size="sm">{t('app.enrollHelp')}</Text>}
                {enrolling ? (
                  <Group>
                    <Loader size="sm" aria-hidden />
                    <Text>{t('app.adding')}</Text>
                  </Group>
                ) : (
                  <ScanPanel
                    onResult={onInput}
                    pasteLabel={t('app.enrollmentCode')}
                    pasteDescription={t('app.enrollmentExample')}
                    submitLabel={t('app.addIdentity')}
                    scanLabel={t('app.scanEnrollment')}
                    quietWithoutCamera={hasIdentities}
                  />
                )}
              </Stack>
            </Card>
          </Stack>
        </section>

        <Text size="xs" c="dimmed" ta="center" component="footer">
          Careplane 0.3.0
        </Text>
      </Stack>
    </Container>
  );
}
