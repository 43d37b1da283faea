// The admin area's frame (spec §2): top bar, a side menu opened by Menu and closed by Close Menu (and by every
// route change), the menu entries, Settings, Public → Home, Actions → Disconnect, and on a phone the language
// switch. Non-admins go to /account. The closed menu is inert: out of the tab order and of the accessibility
// tree, not only slid off-screen. Opening it moves the focus to its first entry; Escape closes it back to the
// toggle; following one of its links moves the focus to the new page's content.
import { AppShell, Box, Button, Divider, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, NavLink as RouterNavLink, Outlet, useLocation } from 'react-router';
import { isAdmin } from '@careplane/shared/auth/roles';
import { paths } from '@/config/paths.ts';
import { LanguageSwitch } from '@/features/account/components/language-switch.tsx';
import { useLiveEvents } from '@/lib/live-events.ts';
import { useSession } from '@/lib/session.ts';
import { AppFooter } from './centered-layout.tsx';
import { Brand } from './brand.tsx';
import { focusMainContent, mainContentProps, SkipLink } from './skip-link.tsx';
import { TopBarSession, useDisconnect } from './top-bar.tsx';
import classes from './layouts.module.css';

export const SIDEBAR_WIDTH = 240;

const admin = paths.admin;
/** The menu's entries; `label` is the entry's key under `common:menu`. */
export const adminMenu = [
  { label: 'users', to: admin.users.list.to() },
  { label: 'patients', to: admin.patients.list.to() },
  { label: 'devices', to: admin.devices.list.to() },
  { label: 'deviceJobs', to: admin.deviceJobs.list.to() },
  { label: 'workstations', to: admin.workstations.list.to() },
  { label: 'iotDevices', to: admin.iotDevices.list.to() },
  { label: 'prescriptions', to: admin.prescriptions.list.to() },
  { label: 'serviceProviders', to: admin.serviceProviders.list.to() },
  { label: 'commandCenters', to: admin.commandCenters.list.to() },
  // Not among the spec's entries: the alerts page (docs/decisions/038).
  { label: 'alerts', to: admin.alerts.list.to() },
] as const;

function MenuLink({ label, to, end }: { label: string; to: string; end?: boolean }) {
  // "Devices" must not stay lit on Device Jobs, which lives below it.
  return <NavLink component={RouterNavLink} to={to} end={end} label={label} />;
}

function SectionTitle({ children }: { children: string }) {
  return (
    <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4}>
      {children}
    </Text>
  );
}

export function Component() {
  const { t } = useTranslation();
  const user = useSession((state) => state.user);
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const disconnect = useDisconnect();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const focusMenuOnOpen = useRef(false);

  useEffect(() => {
    // The page changed under a link of the menu: the focus follows to the page, not to the inert menu.
    if (menuRef.current?.contains(document.activeElement)) focusMainContent();
    close();
  }, [pathname, close]);
  useEffect(() => {
    if (!opened || !focusMenuOnOpen.current) return;
    focusMenuOnOpen.current = false;
    menuRef.current?.querySelector<HTMLElement>('a, button')?.focus({ preventScroll: true });
  }, [opened]);

  const toggleMenu = () => {
    focusMenuOnOpen.current = !opened;
    toggle();
  };
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    close();
    toggleRef.current?.focus();
  };
  // Every admin screen, the home and a device's page refresh what changed, without reload.
  useLiveEvents(isAdmin(user));

  if (!isAdmin(user)) return <Navigate to={paths.account.to()} replace />;

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: SIDEBAR_WIDTH, breakpoint: 'sm', collapsed: { mobile: !opened, desktop: !opened } }}
      padding="md"
    >
      <SkipLink />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Button
              ref={toggleRef}
              variant="subtle"
              size="compact-sm"
              onClick={toggleMenu}
              aria-expanded={opened}
              aria-controls="admin-menu"
            >
              {opened ? t('menu.close') : t('menu.open')}
            </Button>
            <Brand to={admin.root.to()} compact />
          </Group>
          <TopBarSession />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar
        ref={menuRef}
        id="admin-menu"
        aria-label={t('menu.label')}
        p="xs"
        inert={!opened}
        onKeyDown={closeOnEscape}
      >
        <AppShell.Section grow component={ScrollArea}>
          {adminMenu.map((entry) => (
            <MenuLink
              key={entry.to}
              label={t(`menu.${entry.label}`)}
              to={entry.to}
              end={entry.to === admin.devices.list.to()}
            />
          ))}
          <MenuLink label={t('menu.settings')} to={admin.settings.to()} />
          <Divider my="xs" />
          <SectionTitle>{t('menu.public')}</SectionTitle>
          <MenuLink label={t('menu.home')} to={paths.account.to()} />
          <SectionTitle>{t('menu.actions')}</SectionTitle>
          <NavLink component="button" label={t('menu.disconnect')} onClick={disconnect} c="red" />
          {/* On a phone the top bar has no room for the language switch: the menu holds it. */}
          <Box hiddenFrom="xs">
            <SectionTitle>{t('language.label')}</SectionTitle>
            <Box px="sm">
              <LanguageSwitch />
            </Box>
          </Box>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main {...mainContentProps}>
        <div className={classes.container}>
          <Outlet />
        </div>
        <AppFooter />
      </AppShell.Main>
    </AppShell>
  );
}
