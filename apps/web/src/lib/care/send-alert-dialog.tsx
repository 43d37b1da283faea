// Sending an alert to a user asks for the message first (decision 038): the user's devices show it. The
// message starts as a suggestion in the console's language; it is checked by the contract's schema before it
// is sent, and the server checks it again.
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  MAX_USER_ALERT_MESSAGE,
  userAlertSchema,
} from '@careplane/shared/command-centers/command-centers.contract';
import { localizeIssue } from '@careplane/shared/i18n/validation-texts';
import { currentLanguage } from '@/lib/i18n/language.ts';

export function SendAlertDialog({
  opened,
  name,
  sending,
  error,
  onSend,
  onClose,
}: {
  opened: boolean;
  /** Whom the alert goes to. */
  name: string;
  sending: boolean;
  /** The server's refusal, if any. */
  error?: string | null;
  onSend: (message: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('kit');
  // Until edited, the message is the suggestion in the console's language (a switch of language follows).
  const [edited, setMessage] = useState<string | null>(null);
  const message = edited ?? t('sendAlert.suggestion');
  const [touched, setTouched] = useState(false);
  const parsed = userAlertSchema.safeParse({ message });
  const issue = parsed.success ? undefined : parsed.error.issues[0];
  const problem = parsed.success
    ? null
    : issue
      ? localizeIssue(issue, currentLanguage())
      : t('sendAlert.notValid');
  return (
    <Modal opened={opened} onClose={onClose} title={t('sendAlert.title', { name })} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (parsed.success) onSend(parsed.data.message);
        }}
      >
        <Stack gap="sm">
          <Textarea
            label={t('sendAlert.message')}
            description={t('sendAlert.hint', { max: MAX_USER_ALERT_MESSAGE })}
            required
            autosize
            minRows={2}
            value={message}
            onChange={(event) => {
              setTouched(true);
              setMessage(event.currentTarget.value);
            }}
            error={touched && problem ? problem : undefined}
            data-autofocus
          />
          <Text size="xs" c="dimmed" ta="right">
            {message.trim().length} / {MAX_USER_ALERT_MESSAGE}
          </Text>
          {error ? (
            <Text size="sm" c="red.8" role="alert">
              {error}
            </Text>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" color="orange" loading={sending} disabled={!parsed.success}>
              {t('sendAlert.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
