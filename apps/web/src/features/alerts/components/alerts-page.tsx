// The alerts page (docs/decisions/038): every alert, latest first, narrowed by state (open by default),
// severity, command center, IoT device and patient, all kept in the URL; each acknowledged and closed from
// here. The admin area's live events refresh it when an alert opens or changes.
import {
  Alert as Notice,
  Card,
  Loader,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { alertSeverities } from '@careplane/shared/alerts/alerts.contract';
import { PlainList } from '@/lib/plain-list.tsx';
import { PageHeader } from '@/lib/resource-kit/page-header.tsx';
import { RelationSelect } from '@/lib/resource-kit/relation-select.tsx';
import { PageControls } from '@/lib/resource-kit/list/page-controls.tsx';
import { ALERTS_PAGE_SIZE, alertsPageQuery, type AlertFilters } from '../api/alerts.queries.ts';
import { AlertEntry, severityText } from './alert-entry.tsx';

const statuses = [
  { value: 'active', label: 'open' },
  { value: 'closed', label: 'closed' },
  { value: 'all', label: 'all' },
] as const;

const countKeys = { active: 'page.countActive', closed: 'page.countClosed', all: 'page.countAll' } as const;

function filtersOf(params: URLSearchParams): AlertFilters {
  const status = params.get('status');
  const severity = params.get('severity');
  return {
    status: status === 'closed' || status === 'all' ? status : 'active',
    severity: severity && (alertSeverities as readonly string[]).includes(severity) ? severity : null,
    commandCenter: params.get('commandCenter'),
    iotDevice: params.get('iotDevice'),
    patient: params.get('patient'),
    page: Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
  };
}

export function AlertsPage() {
  const [params, setParams] = useSearchParams();
  const { t } = useTranslation('alerts');
  const filters = filtersOf(params);
  const alerts = useQuery(alertsPageQuery(filters));

  /** Changes one parameter; any change but the page's goes back to the first page. */
  const set = (key: keyof AlertFilters, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null || value === '' || (key === 'status' && value === 'active')) next.delete(key);
        else next.set(key, value);
        if (key !== 'page') next.delete('page');
        return next;
      },
      { replace: key !== 'page' },
    );

  const total = alerts.data?.total ?? 0;
  return (
    <Stack gap="md">
      <PageHeader
        title={t('page.title')}
        subtitle={alerts.data ? t(countKeys[filters.status], { count: total }) : undefined}
      />
      <Card withBorder component="section" aria-label={t('page.filters')}>
        <Stack gap="sm">
          <SegmentedControl
            aria-label={t('page.state')}
            data={statuses.map(({ value, label }) => ({ value, label: t(`page.${label}`) }))}
            value={filters.status}
            onChange={(value) => set('status', value)}
            w="fit-content"
          />
          {/* Two filters a row even on a phone: one a row pushed the first alert to the bottom of the screen. */}
          <SimpleGrid cols={{ base: 2, lg: 4 }} spacing="sm">
            <Select
              label={t('page.severity')}
              placeholder={t('page.any')}
              clearable
              data={alertSeverities.map((severity) => ({ value: severity, label: severityText(severity) }))}
              value={filters.severity}
              onChange={(value) => set('severity', value)}
            />
            <RelationSelect
              resource="command-centers"
              label={t('page.commandCenter')}
              placeholder={t('page.any')}
              value={filters.commandCenter}
              onChange={(value) => set('commandCenter', value)}
            />
            <RelationSelect
              resource="iot-devices"
              label={t('page.iotDevice')}
              placeholder={t('page.any')}
              value={filters.iotDevice}
              onChange={(value) => set('iotDevice', value)}
            />
            <RelationSelect
              resource="users"
              label={t('page.patient')}
              placeholder={t('page.anyone')}
              value={filters.patient}
              onChange={(value) => set('patient', value)}
            />
          </SimpleGrid>
        </Stack>
      </Card>
      <Card withBorder component="section" aria-label={t('page.list')}>
        {alerts.isPending ? (
          <Loader size="sm" role="status" aria-label={t('page.loading')} />
        ) : alerts.isError ? (
          <Notice color="red" title={t('page.loadFailed')}>
            {alerts.error.message}
          </Notice>
        ) : alerts.data.items.length ? (
          <Stack gap="md">
            <PlainList gap="lg" aria-label={t('page.list')}>
              {alerts.data.items.map((alert) => (
                <AlertEntry key={alert.id} alert={alert} />
              ))}
            </PlainList>
            <PageControls
              total={total}
              pageSize={ALERTS_PAGE_SIZE}
              page={filters.page}
              onChange={(page) => set('page', String(page))}
            />
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {t('page.noneMatch')}
          </Text>
        )}
      </Card>
    </Stack>
  );
}
