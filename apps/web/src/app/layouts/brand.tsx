// The product's mark and name, linking home.
import { Group, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { APP_NAME } from '@careplane/shared/common/enums';

/** `compact`: the name gives way to the mark on a phone, where the top bar is crowded. */
export function Brand({ to, compact = false }: { to: string; compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <UnstyledButton component={Link} to={to} aria-label={t('home', { name: APP_NAME })}>
      <Group gap={8} wrap="nowrap">
        <img src="/favicon.svg" alt="" width={28} height={28} />
        <Text fw={700} size="lg" visibleFrom={compact ? 'sm' : undefined}>
          {APP_NAME}
        </Text>
      </Group>
    </UnstyledButton>
  );
}
