// Shown while the first page of a visit loads.
import { Center, Loader } from '@mantine/core';

export function PageLoader() {
  return (
    <Center mih="100dvh">
      <Loader role="status" aria-label="Loading" />
    </Center>
  );
}
