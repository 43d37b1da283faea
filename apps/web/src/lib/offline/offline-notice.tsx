// The console-wide offline notice: every page says that the device is offline as soon as the browser says so,
// not only once a request has failed. The areas that work offline (pharmacy, prescriptions) have their own
// banner with the kept actions (offline-banner.tsx): their routes carry OWN_OFFLINE_BANNER in their handle, and
// this notice stays away there, so no page shows two.
import { Alert, Box, getDefaultZIndex } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { useOnline } from './online.ts';

/** The handle of a route whose pages show the offline banner themselves. */
export const OWN_OFFLINE_BANNER = { offlineBanner: true } as const;

const showsOwnBanner = (handle: unknown) =>
  typeof handle === 'object' &&
  handle !== null &&
  (handle as { offlineBanner?: unknown }).offlineBanner === true;

export function OfflineNotice() {
  const { t } = useTranslation('kit');
  const online = useOnline();
  const ownBanner = useMatches().some((match) => showsOwnBanner(match.handle));
  if (online || ownBanner) return null;
  // Fixed at the bottom left, over whatever layout the page has (their headers are fixed at the top, and the
  // notifications stack at the bottom right).
  return (
    <Box pos="fixed" bottom={16} left={16} right={16} maw={480} style={{ zIndex: getDefaultZIndex('app') }}>
      <Alert color="yellow" variant="filled" role="status" data-testid="offline-notice" py="xs">
        {t('offline.notice')}
      </Alert>
    </Box>
  );
}
