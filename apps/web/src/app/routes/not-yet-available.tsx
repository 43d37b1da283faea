// The admin, pharmacy and prescriptions pages arrive in their own issues; until then each address shows its
// layout and says so plainly.
import { Alert, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';

export function Component() {
  const { t } = useTranslation();
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as { title?: string } | undefined;
  const title = handle?.title ?? t('notYetAvailable.thisPage');
  return (
    <Stack gap="md" py="md">
      <Title order={1} size="h2">
        {title}
      </Title>
      <Alert color="blue" title={t('notYetAvailable.title')}>
        {t('notYetAvailable.text', { title })}
      </Alert>
    </Stack>
  );
}
