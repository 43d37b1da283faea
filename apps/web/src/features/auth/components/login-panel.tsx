// Signing in (spec §4): by QR code, or by user identifier with a binding message to compare on the phone.
// The flow writes its progress into the session store; this panel shows it.
import {
  Alert,
  Anchor,
  Button,
  Center,
  Image,
  Loader,
  Paper,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { isAdmin } from '@careplane/shared/auth/roles';
import { paths } from '@/config/paths.ts';
import { sessionStore, useSession } from '@/lib/session.ts';
import { createLoginFlow, loginMessages, type LoginFlow } from '../api/login-flow.ts';

/** Stops a pending sign-in and forgets its QR code and countdown. */
function stopLogin(flow: LoginFlow) {
  flow.cancel();
  if (sessionStore.getState().loginStatus === 'pending') {
    sessionStore.set({ loginStatus: 'logged out', qrCodeDataUrl: null, timeOut: null });
  }
}

function useLoginFlow() {
  const navigate = useNavigate();
  const [bindingMessage, setBindingMessage] = useState<string | null>(null);
  const [flow] = useState<LoginFlow>(() =>
    createLoginFlow({ navigate: (to) => void navigate(to), onBindingMessage: setBindingMessage }),
  );
  useEffect(() => {
    // A sign-in left pending or failed by an earlier visit has no flow behind it any more.
    const { loginStatus } = sessionStore.getState();
    if (loginStatus === 'pending' || loginStatus === 'error') {
      sessionStore.set({ loginStatus: 'logged out', loginError: null, qrCodeDataUrl: null, timeOut: null });
    }
    return () => flow.cancel();
  }, [flow]);
  return { flow, bindingMessage };
}

function Remaining() {
  const { t } = useTranslation('auth');
  const timeOut = useSession((state) => state.timeOut);
  if (timeOut === null) return null;
  return (
    <Text size="sm" c="dimmed" aria-live="polite">
      {t('expiresIn', { seconds: timeOut })}
    </Text>
  );
}

function BindingMessage({ code }: { code: string | null }) {
  const { t } = useTranslation('auth');
  if (!code) return null;
  return (
    <Stack gap={2} align="center">
      <Text size="sm">{t('compareCode')}</Text>
      <Text fz={28} fw={700} ff="monospace" data-testid="binding-message">
        {code}
      </Text>
    </Stack>
  );
}

/** The failures in the console's own words, which its catalogs translate. */
const ownFailures = ['denied', 'registrationFailed', 'startFailed', 'offline'] as const;

function LoginError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('auth');
  const error = useSession((state) => (state.loginStatus === 'error' ? state.loginError : null));
  if (!error) return null;
  // The session keeps the English words; the console's own are shown in the reader's language.
  const own = ownFailures.find((key) => loginMessages[key] === error);
  return (
    <Alert color="red" title={t('failed')} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{own ? t(`failure.${own}`) : error}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry}>
          {t('tryAgain')}
        </Button>
      </Stack>
    </Alert>
  );
}

function QrLogin({ flow, bindingMessage }: { flow: LoginFlow; bindingMessage: string | null }) {
  const status = useSession((state) => (state.loginMethod === 'qr' ? state.loginStatus : 'logged out'));
  const { t } = useTranslation('auth');
  const qrCodeDataUrl = useSession((state) => state.qrCodeDataUrl);
  const start = () => void flow.startQr();
  return (
    <Stack gap="md" align="center" py="sm">
      {status === 'logged out' ? (
        <>
          <Text size="sm" ta="center">
            {t('qr.intro')}
          </Text>
          <Button onClick={start}>{t('qr.show')}</Button>
        </>
      ) : null}
      {status === 'pending' && qrCodeDataUrl ? (
        <>
          <Image src={qrCodeDataUrl} alt={t('qr.alt')} w={256} h={256} fit="contain" />
          <BindingMessage code={bindingMessage} />
          <Remaining />
        </>
      ) : null}
      {status === 'pending' && !qrCodeDataUrl ? (
        <Stack gap="xs" align="center">
          <Loader size="sm" />
          <Text size="sm">{t('qr.approve')}</Text>
          <Remaining />
        </Stack>
      ) : null}
      {status === 'error' ? <LoginError onRetry={start} /> : null}
    </Stack>
  );
}

function IdentifierLogin({ flow, bindingMessage }: { flow: LoginFlow; bindingMessage: string | null }) {
  const status = useSession((state) =>
    state.loginMethod === 'backchannel' ? state.loginStatus : 'logged out',
  );
  const { t } = useTranslation('auth');
  const [identifier, setIdentifier] = useState(() => sessionStore.getState().userIdentifier ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (identifier.trim()) void flow.startWithIdentifier(identifier);
  };
  if (status === 'pending') {
    return (
      <Stack gap="md" align="center" py="sm">
        <Loader size="sm" />
        <Text size="sm" ta="center">
          {t('identifier.sentBefore')}
          <b>{sessionStore.getState().userIdentifier}</b>
          {t('identifier.sentAfter')}
        </Text>
        <BindingMessage code={bindingMessage} />
        <Remaining />
        <Button variant="subtle" size="xs" onClick={() => stopLogin(flow)}>
          {t('identifier.cancel')}
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="md" py="sm">
      <form onSubmit={submit}>
        <Stack gap="sm">
          <TextInput
            label={t('identifier.label')}
            description={t('identifier.description')}
            placeholder="name@domain"
            value={identifier}
            onChange={(event) => setIdentifier(event.currentTarget.value)}
            autoComplete="username"
            // A user ID, typed on a phone: no capital first letter, no corrections, the keyboard with @.
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            inputMode="email"
            maxLength={254}
            required
          />
          <Button type="submit" disabled={!identifier.trim()}>
            {t('identifier.submit')}
          </Button>
        </Stack>
      </form>
      {status === 'error' ? <LoginError onRetry={() => void flow.startWithIdentifier(identifier)} /> : null}
    </Stack>
  );
}

function SignedIn() {
  const { t } = useTranslation('auth');
  const user = useSession((state) => state.user);
  const name = `${user?.firstName ?? ''} ${user?.lastName ?? ''}`.trim() || user?.username;
  return (
    <Stack gap="sm" align="center" py="sm">
      <Text>{t('signedInAs', { name: name ?? t('aUser') })}</Text>
      <Anchor component={Link} to={isAdmin(user) ? paths.admin.root.to() : paths.account.to()}>
        {t('openConsole')}
      </Anchor>
    </Stack>
  );
}

export function LoginPanel() {
  const { t } = useTranslation('auth');
  const { flow, bindingMessage } = useLoginFlow();
  const approved = useSession((state) => state.loginStatus === 'approved' && !!state.accessToken);
  const [tab, setTab] = useState<string | null>('qr');

  const changeTab = (next: string | null) => {
    // Leaving a pending sign-in stops it: one request at a time.
    stopLogin(flow);
    setTab(next);
  };

  return (
    <Paper
      withBorder
      shadow="sm"
      radius="md"
      p="lg"
      w="100%"
      maw={420}
      component="section"
      aria-label={t('panel')}
    >
      {approved ? (
        <SignedIn />
      ) : (
        <Tabs value={tab} onChange={changeTab}>
          <Tabs.List grow>
            <Tabs.Tab value="qr">{t('tabs.qr')}</Tabs.Tab>
            <Tabs.Tab value="identifier">{t('tabs.identifier')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="qr">
            <QrLogin flow={flow} bindingMessage={bindingMessage} />
          </Tabs.Panel>
          <Tabs.Panel value="identifier">
            <IdentifierLogin flow={flow} bindingMessage={bindingMessage} />
          </Tabs.Panel>
        </Tabs>
      )}
      <Center mt="xs">
        <Text size="xs" c="dimmed">
          {t('noPassword')}
        </Text>
      </Center>
    </Paper>
  );
}
