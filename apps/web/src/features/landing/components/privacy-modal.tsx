// The privacy policy of spec §2, in full.
import { Anchor, List, Modal, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { getRuntimeConfig } from '@/lib/config.ts';

export const PRIVACY_EFFECTIVE_DATE = '01.12.2020';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={6}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

export function PrivacyModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { supportEmail } = getRuntimeConfig();
  return (
    <Modal opened={opened} onClose={onClose} title="Privacy policy" size="lg" centered>
      <Stack gap="md">
        <Text>
          This policy explains what Careplane collects when you use this website and its apps, and how that
          information is handled.
        </Text>
        <Section title="Information we collect routinely">
          <Text>Like most websites, our servers routinely record, for every visit:</Text>
          <List size="sm" spacing={2}>
            <List.Item>your IP address;</List.Item>
            <List.Item>details of your browser (its type and version) and operating system;</List.Item>
            <List.Item>timestamps of your requests;</List.Item>
            <List.Item>the referring page that linked you here.</List.Item>
          </List>
          <Text>
            We use this information to run and secure the service and to understand how it is used. It is not
            sold or shared for advertising.
          </Text>
        </Section>
        <Section title="Cookies">
          <Text>
            The website keeps what it needs to keep you signed in in your browser&apos;s storage. It sets no
            advertising or tracking cookies. You can clear this storage at any time; you will then have to
            sign in again.
          </Text>
        </Section>
        <Section title="Links to third-party sites">
          <Text>
            This website links to other sites, such as the app stores. We are not responsible for their
            content or their privacy practices; read their policies when you visit them.
          </Text>
        </Section>
        <Section title="Security">
          <Text>
            We protect the information we hold with reasonable technical and organisational measures. Signing
            in uses a key held on your phone, never a password; keep your phone safe and do not let anyone
            else use it to sign in. No method of transmission or storage is completely secure, and we cannot
            guarantee absolute security.
          </Text>
        </Section>
        <Section title="Changes to this policy">
          <Text>
            We may update this policy from time to time; the new version is published on this page. This
            policy is effective as of {PRIVACY_EFFECTIVE_DATE}.
          </Text>
        </Section>
        <Section title="Contact">
          <Text>
            Questions about this policy or about your information:{' '}
            <Anchor href={`mailto:${supportEmail}`}>{supportEmail}</Anchor>.
          </Text>
        </Section>
      </Stack>
    </Modal>
  );
}
