// The Documents info box of the landing page (spec §1, §2): getting started, how it works, fees.
import { Button, Card, List, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { StoreBadges } from './store-badges.tsx';

export function DocumentsInfo() {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="documents-title">
      <Stack gap="md">
        <Title order={2} id="documents-title" size="h3">
          Documents
        </Title>
        <Text>
          Store and share PDF documents and sign them from your phone. Anyone you share a document with can
          check that it is authentic, has not been changed, and was signed.
        </Text>
        <Button component={Link} to={paths.verify.to()} variant="light" w="fit-content">
          Verify a document
        </Button>
        <Stack gap={6}>
          <Title order={3} size="h5">
            Getting started
          </Title>
          <List type="ordered" size="sm" spacing={4}>
            <List.Item>Download the mobile app.</List.Item>
            <List.Item>
              Register: the app ties your account to your digital identity, no form to fill in.
            </List.Item>
            <List.Item>Log in here with the QR code or with your user ID.</List.Item>
          </List>
          <StoreBadges />
        </Stack>
        <Stack gap={6}>
          <Title order={3} size="h5">
            How it works
          </Title>
          <Text size="sm">
            Your phone holds the private key of your account. Signing in or signing a document is a request
            that your phone shows you and that you approve there; the key never leaves the phone. Keep your
            phone safe and never let anyone else use your key.
          </Text>
        </Stack>
        <Stack gap={6}>
          <Title order={3} size="h5">
            Fees
          </Title>
          <Text size="sm">
            None. The platform and its apps are free, and we will never ask for your payment details.
          </Text>
        </Stack>
      </Stack>
    </Card>
  );
}
