// The frame of the pharmacy and prescriptions areas: top bar, the area's menu with Logout (and on a phone the
// language), the offline banner (decision 046), the page.
import { AppShell, Badge, Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { LanguageSwitch } from '@/features/account/components/language-switch.tsx';
import { OfflineBanner } from '@/lib/offline/offline-banner.tsx';
import { AppFooter } from './centered-layout.tsx';
import { Brand } from './brand.tsx';
import { mainContentProps, SkipLink } from './skip-link.tsx';
import { TopBarSession, useDisconnect } from './top-bar.tsx';
import classes from './layouts.module.css';

export interface AreaMenuEntry {
  label: string;
  to: string;
  /** How many items the entry's page holds, once known. */
  count?: number | undefined;
  /** Marked as the current entry on the pages below its own too (Written, while writing a new one). */
  section?: boolean;
}

function MenuButton({ entry }: { entry: AreaMenuEntry }) {
  return (
    <NavLink to={entry.to} end={!entry.section} style={{ textDecoration: 'none' }}>
      {({ isActive }) => (
        <Button
          component="span"
          size="sm"
          variant={isActive ? 'filled' : 'subtle'}
          rightSection={
            entry.count === undefined ? null : (
              <Badge size="sm" circle={entry.count < 10} variant={isActive ? 'white' : 'light'}>
                {entry.count}
              </Badge>
            )
          }
        >
          {entry.label}
        </Button>
      )}
    </NavLink>
  );
}

export function AreaLayout({ label, home, menu }: { label: string; home: string; menu: AreaMenuEntry[] }) {
  const { t } = useTranslation('prescriptions');
  const logout = useDisconnect();
  return (
    <AppShell header={{ height: 56 }} padding="md">
      <SkipLink />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Brand to={home} compact />
          <TopBarSession />
        </Group>
      </AppShell.Header>
      <AppShell.Main {...mainContentProps}>
        <div className={classes.container}>
          {/* The tabs wrap onto a second row rather than run past a phone's edge: in Thai, three tabs with their
              counts and Logout are wider than 390 px, and a hidden scroll left the last one cut in half. */}
          <Group component="nav" aria-label={label} gap="xs" wrap="wrap" pt="xs" pb="md">
            {menu.map((entry) => (
              <MenuButton key={entry.label} entry={entry} />
            ))}
            <Button size="sm" variant="subtle" color="red" onClick={logout}>
              {t('menu.logout')}
            </Button>
            {/* On a phone the top bar has no room for the language: the tabs carry it. */}
            <LanguageSwitch hiddenFrom="xs" />
          </Group>
          <OfflineBanner />
          <Outlet />
        </div>
        <AppFooter />
      </AppShell.Main>
    </AppShell>
  );
}
