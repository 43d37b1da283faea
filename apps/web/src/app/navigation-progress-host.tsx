// The navigation progress bar, in its own chunk: the root route mounts it when the first navigation starts.
import { NavigationProgress } from '@mantine/nprogress';
import { useTranslation } from 'react-i18next';

export default function NavigationProgressHost() {
  const { t } = useTranslation('kit');
  return <NavigationProgress size={3} aria-label={t('loadingPage')} />;
}
