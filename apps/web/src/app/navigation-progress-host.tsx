// The navigation progress bar, in its own chunk: the root route mounts it when the first navigation starts.
import { NavigationProgress } from '@mantine/nprogress';

export default function NavigationProgressHost() {
  return <NavigationProgress size={3} aria-label="Loading the page" />;
}
