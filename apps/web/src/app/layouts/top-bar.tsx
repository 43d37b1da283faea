// The top bar of spec §2: shown only while approved, with the server address, the user's name, and
// Disconnect with the seconds left in the session; and a menu of the areas the user's roles open.
import { Button, Group, Menu, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/config/paths.ts';
import { LanguageSwitch, useChooseLanguage } from '@/features/account/components/language-switch.tsx';
import { languageNames, languages } from '@careplane/shared/i18n/language-tags';
import { areasOf } from '@/lib/areas.ts';
import { useLanguage } from '@/lib/i18n/language.ts';
import { actionOutbox } from '@/lib/offline/action-outbox.ts';
import { sessionStore, signOut, useSession } from '@/lib/session.ts';

/**
 * Logs out and goes to the front page. Actions kept on this device and not sent yet (decision 076) stay there
 * and are sent after the same person's next sign-in here; logging out with some waiting asks first.
 */
export function useDisconnect() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return () => {
    const leave = () => {
      signOut(queryClient);
      void navigate(paths.home.to());
    };
    const userId = sessionStore.getState().user?.id;
    const waiting = actionOutbox.entries().filter((entry) => entry.userId === userId).length;
    if (waiting === 0) return leave();
    modals.openConfirmModal({
      title: i18next.t('kit:offline.logoutTitle'),
      children: <Text size="sm">{i18next.t('kit:offline.logoutText', { count: waiting })}</Text>,
      labels: {
        confirm: i18next.t('kit:offline.logoutConfirm'),
        cancel: i18next.t('kit:offline.logoutCancel'),
      },
      confirmProps: { color: 'red' },
      onConfirm: leave,
    });
  };
}

/**
 * Every area the user may work in, and their account, one click away from any page. On a phone it also holds
 * the language choice, which the top bar has no room for there.
 */
function AreasMenu() {
  const { t } = useTranslation();
  const user = useSession((state) => state.user);
  const serverUrl = useSession((state) => state.appServerUrl);
  const name = `${user?.firstName ?? ''} ${user?.lastName ?? ''}`.trim();
  const areas = areasOf(user);
  const language = useLanguage();
  const chooseLanguage = useChooseLanguage();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="xs" variant="default" style={{ flexShrink: 0 }}>
          {t('topBar.areas')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown aria-label={t('topBar.areas')}>
        {/* What the bar shows on wider screens (spec §2) heads the menu where the bar has no room for it. */}
        {name ? (
          <Menu.Label hiddenFrom="sm" data-testid="menu-user">
            {name}
          </Menu.Label>
        ) : null}
        <Menu.Label hiddenFrom="md" title={t('topBar.server')} style={{ overflowWrap: 'anywhere' }}>
          {serverUrl}
        </Menu.Label>
        <Menu.Divider hiddenFrom="md" />
        {areas.map((area) => (
          <Menu.Item key={area.key} component={Link} to={area.to}>
            {area.label}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item component={Link} to={paths.account.to()}>
          {t('topBar.yourAccount')}
        </Menu.Item>
        <Menu.Divider hiddenFrom="xs" />
        <Menu.Label hiddenFrom="xs">{t('language.label')}</Menu.Label>
        {languages.map((choice) => (
          <Menu.Item
            key={choice}
            hiddenFrom="xs"
            lang={choice}
            aria-current={choice === language ? 'true' : undefined}
            fw={choice === language ? 700 : undefined}
            onClick={() => void chooseLanguage(choice)}
          >
            {languageNames[choice]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

export function TopBarSession() {
  const { t } = useTranslation();
  const approved = useSession((state) => state.loginStatus === 'approved');
  const serverUrl = useSession((state) => state.appServerUrl);
  const firstName = useSession((state) => state.user?.firstName ?? '');
  const lastName = useSession((state) => state.user?.lastName ?? '');
  const secondsLeft = useSession((state) => state.timeOutIn);
  const disconnect = useDisconnect();
  if (!approved) return null;
  return (
    <Group gap="sm" wrap="nowrap" justify="flex-end" style={{ minWidth: 0 }}>
      <Text size="sm" c="dimmed" truncate visibleFrom="md" title={t('topBar.server')}>
        {serverUrl}
      </Text>
      <Text size="sm" fw={600} truncate visibleFrom="sm" data-testid="top-bar-user">
        {`${firstName} ${lastName}`.trim()}
      </Text>
      <LanguageSwitch visibleFrom="xs" />
      <AreasMenu />
      <Button size="xs" variant="light" color="red" onClick={disconnect} style={{ flexShrink: 0 }}>
        {secondsLeft === null ? t('topBar.disconnect') : t('topBar.disconnectIn', { seconds: secondsLeft })}
      </Button>
    </Group>
  );
}
