// Shown at every console address until the console's pages arrive.
import { Paper, Stack, Text, Title } from '@mantine/core';
import { APP_NAME } from '@careplane/shared/common/enums';

export function ComingSoonPage() {
  return (
    <Paper withBorder shadow="sm" p="xl" maw={520} w="100%">
      <Stack gap="sm" align="center" ta="center">
        <Title order={1}>{APP_NAME}</Title>
        <Text size="lg">The operations console for care at home and telemedicine is coming soon.</Text>
      </Stack>
    </Paper>
  );
}
