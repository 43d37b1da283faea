// The banner of the areas that work offline: says the device is offline and how many actions wait.
import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useOnline } from './online.ts';
import { offlineTexts } from './texts.ts';
import { useKeptActions } from './use-outbox.ts';

export function OfflineBanner() {
  // Its texts are read from the catalog: a change of language draws it again.
  useTranslation('kit');
  const online = useOnline();
  const entries = useKeptActions();
  const kept = entries.length;
  if (online && kept === 0) return null;
  const failed = entries[0]?.lastError;
  const text = online
    ? `${failed ? offlineTexts.retrying(failed) : offlineTexts.bannerSending} ${offlineTexts.bannerPending(kept)}`
    : `${offlineTexts.bannerOffline}${kept > 0 ? ` ${offlineTexts.bannerPending(kept)}` : ''}`;
  return (
    <Alert
      color={online ? 'blue' : 'yellow'}
      variant="light"
      role="status"
      data-testid="offline-banner"
      mb="xs"
    >
      {text}
    </Alert>
  );
}
