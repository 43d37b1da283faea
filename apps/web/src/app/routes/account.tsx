// /account: the signed-in user's own page, with the top bar, the language switch, their phones (revoking a
// lost one), and a link to every area their roles open.
import { Anchor, Box, Container, Group, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { AccountProfile } from '@/features/account/components/account-profile.tsx';
import { LanguageSwitch } from '@/features/account/components/language-switch.tsx';
import { PhonesSection } from '@/features/users/components/phones.tsx';
import { areasOf } from '@/lib/areas.ts';
import { useSession } from '@/lib/session.ts';
import { Brand } from '../layouts/brand.tsx';
import { mainContentProps, SkipLink } from '../layouts/skip-link.tsx';
import { AppFooter } from '../layouts/centered-layout.tsx';
import { TopBarSession } from '../layouts/top-bar.tsx';

export function Component() {
  const { t } = useTranslation('account');
  const { t: tc } = useTranslation();
  const user = useSession((state) => state.user);
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <Box
        component="header"
        px="md"
        py="sm"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <Group justify="space-between" wrap="nowrap">
          <Brand to={paths.account.to()} compact />
          <TopBarSession />
        </Group>
      </Box>
      <Container component="main" {...mainContentProps} size="sm" py="xl" w="100%" style={{ flex: 1 }}>
        <Stack gap="md">
          <AccountProfile />
          {user ? <PhonesSection user={user} own /> : null}
          {/* On a phone, where the top bar has no room for its switch; wider, the top bar's is the one. */}
          <Stack
            component="section"
            gap="xs"
            align="flex-start"
            aria-labelledby="account-language"
            hiddenFrom="xs"
          >
            <Title order={2} size="h4" id="account-language">
              {tc('language.label')}
            </Title>
            <LanguageSwitch />
          </Stack>
          <Stack component="nav" gap="xs" aria-labelledby="account-areas">
            <Title order={2} size="h4" id="account-areas">
              {t('whereYouWork')}
            </Title>
            {areasOf(user).map((area) => (
              <Anchor key={area.key} component={Link} to={area.to}>
                {area.link}
              </Anchor>
            ))}
          </Stack>
        </Stack>
      </Container>
      <AppFooter />
    </Box>
  );
}
