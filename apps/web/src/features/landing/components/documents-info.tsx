// The Documents info box of the landing page (spec §1, §2): getting started, how it works, fees.
import { Button, Card, List, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { StoreBadges } from './store-badges.tsx';

export function DocumentsInfo() {
  const { t } = useTranslation('landing');
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="documents-title">
      <Stack gap="md">
        <Title order={2} id="documents-title" size="h3">
          {t('documents.title')}
        </Title>
        <Text>{t('documents.intro')}</Text>
        <Button component={Link} to={paths.verify.to()} variant="light" w="fit-content">
          {t('documents.verify')}
        </Button>
        <Stack gap={6}>
          <Title order={3} size="h5">
            {t('documents.gettingStarted')}
          </Title>
          <List type="ordered" size="sm" spacing={4}>
            <List.Item>{t('documents.download')}</List.Item>
            <List.Item>{t('documents.register')}</List.Item>
            <List.Item>{t('documents.logIn')}</List.Item>
          </List>
          <StoreBadges />
        </Stack>
        <Stack gap={6}>
          <Title order={3} size="h5">
            {t('documents.howItWorks')}
          </Title>
          <Text size="sm">{t('documents.how')}</Text>
        </Stack>
        <Stack gap={6}>
          <Title order={3} size="h5">
            {t('documents.fees')}
          </Title>
          <Text size="sm">{t('documents.feesText')}</Text>
        </Stack>
      </Stack>
    </Card>
  );
}
