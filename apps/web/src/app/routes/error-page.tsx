// The error pages of spec §2 and §8: 404 "This page could not be found" with a way home, and the generic
// page with its status (500 unless said otherwise) and message.
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { specTexts } from '@/lib/i18n/spec-texts.ts';

/** Spec §2's words: the same in either language. */
export const NOT_FOUND_MESSAGE = specTexts.notFound;

export function ErrorPage({ status = 500, message }: { status?: number; message?: string }) {
  const { t } = useTranslation();
  const text = status === 404 ? NOT_FOUND_MESSAGE : message || t('error.somethingWrong');
  return (
    <Stack align="center" gap="sm" ta="center" py="xl" maw={560} mx="auto">
      <Title order={1} fz={64} c="dimmed">
        {status}
      </Title>
      <Text size="lg" role={status === 404 ? undefined : 'alert'}>
        {text}
      </Text>
      {status === 404 ? (
        <Anchor component={Link} to={paths.home.to()}>
          {specTexts.backToHome}
        </Anchor>
      ) : null}
    </Stack>
  );
}
