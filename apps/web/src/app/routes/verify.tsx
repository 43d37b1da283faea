// /verify: anyone, signed in or not, checks that a PDF is authentic, untampered and signed. With
// ?prescription=<id> (the QR code printed on a prescription's receipts) it first shows the verification of
// that prescription's signed receipts as the platform holds them.
import { Alert, Anchor, Box, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { prescriptionVerifiedReceiptPath } from '@careplane/shared/prescriptions/prescriptions.contract';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths.ts';
import { VerificationReportView } from '@/features/documents/components/verification-report.tsx';
import { VerifyPanel } from '@/features/documents/components/verify-panel.tsx';
import { custodyQueries } from '@/features/prescriptions/api/custody.ts';
import { apiUrl } from '@/lib/api-client.ts';
import { useSession } from '@/lib/session.ts';
import { Brand } from '../layouts/brand.tsx';
import { mainContentProps, SkipLink } from '../layouts/skip-link.tsx';
import { AppFooter } from '../layouts/centered-layout.tsx';

/** The receipts of the prescription a printed QR code names, verified as the platform holds them. */
function PrescriptionReceipts({ id }: { id: string }) {
  const { t } = useTranslation();
  const verification = useQuery(custodyQueries.verification(id));
  if (verification.isPending) return <Loader role="status" aria-label={t('verify.checking')} />;
  if (verification.isError) {
    return (
      <Alert color="yellow" title={t('verify.notFoundTitle')} role="alert">
        {t('verify.notFoundText')}
      </Alert>
    );
  }
  return (
    <Stack gap="lg" component="section" aria-label={t('verify.receipts')}>
      {verification.data.receipts.map(({ receipt, report }) => {
        const receiptTitle = t(`verify.receiptTitles.${receipt}`);
        return (
          <Stack gap="xs" key={receipt}>
            <Title order={2} size="h4">
              {receiptTitle}
            </Title>
            <Text size="sm">
              {t('verify.compareBefore')}
              <Anchor href={apiUrl(prescriptionVerifiedReceiptPath(id, receipt))} target="_blank">
                {t('verify.compareLink')}
              </Anchor>
              {t('verify.compareAfter')}
            </Text>
            <VerificationReportView report={report} fileName={receiptTitle} />
          </Stack>
        );
      })}
    </Stack>
  );
}

export function Component() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const prescription = search.get('prescription');
  const signedIn = useSession((state) => state.loginStatus === 'approved');
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <Box
        component="header"
        px="md"
        py="sm"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <Group justify="space-between" wrap="nowrap">
          <Brand to={paths.home.to()} />
          <Anchor component={Link} to={signedIn ? paths.documents.list.to() : paths.home.to()} size="sm">
            {signedIn ? t('verify.yourDocuments') : t('verify.logIn')}
          </Anchor>
        </Group>
      </Box>
      <Container component="main" {...mainContentProps} size="sm" py="xl" w="100%" style={{ flex: 1 }}>
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1} size="h2">
              {t('verify.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('verify.intro')}
            </Text>
          </Stack>
          {prescription ? <PrescriptionReceipts id={prescription} /> : null}
          <VerifyPanel />
        </Stack>
      </Container>
      <AppFooter />
    </Box>
  );
}
