// What a page says when a read failed: what could not be loaded, why (offline, out of reach, the server's
// refusal), and a button to ask again. Never an empty list in its place: "no open alerts" must mean none.
import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { inSentence } from '@/lib/i18n/translation.ts';

export function LoadFailed({
  things,
  error,
  onRetry,
}: {
  /** What was being loaded, as a title says it ("Open alerts"). */
  things: string;
  error: Error;
  onRetry: () => void;
}) {
  const { t } = useTranslation('kit');
  return (
    <Alert color="red" title={t('list.couldNotLoad', { things: inSentence(things) })} role="alert">
      <Group justify="space-between" gap="xs">
        <Text size="sm">{error.message}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry}>
          {t('tryAgain')}
        </Button>
      </Group>
    </Alert>
  );
}
