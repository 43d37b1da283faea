// The spec's centred layout: content in the middle of the screen, the product name and version at the foot.
import { Box, Center, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { APP_NAME, APP_VERSION } from '@careplane/shared/common/enums';

export function CenteredLayout({ children }: { children: ReactNode }) {
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Center component="main" style={{ flex: 1 }} p="md">
        {children}
      </Center>
      <Box component="footer" py="md" ta="center">
        <Text size="sm" c="dimmed">
          {`${APP_NAME} ${APP_VERSION}`}
        </Text>
      </Box>
    </Box>
  );
}
