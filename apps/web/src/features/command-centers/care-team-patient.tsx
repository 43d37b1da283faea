// One person of the care team's command centers (decision 102): their open alerts, to acknowledge and close as
// in the view, and the vital signs their IoT devices send (those assigned to them and those linked to their
// devices), one chart at a time. Someone outside the caller's centers reads as not found, as the server says.
import { Alert as Notice, Anchor, Badge, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { Alert } from '@careplane/shared/alerts/alerts.contract';
import { formatDateTime } from '@careplane/shared/common/formats';
import { personName } from '@careplane/shared/common/record-labels';
import type { IotDevice } from '@careplane/shared/iot/iot.contract';
import { readingText } from '@careplane/shared/iot/reading-text';
import { paths, type VitalSignsState } from '@/config/paths.ts';
import { ApiError } from '@/lib/api-client.ts';
import { useAddressParam } from '@/lib/address-param.ts';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { useLanguage } from '@/lib/i18n/language.ts';
import { useLiveEvents } from '@/lib/live-events.ts';
import { LoadFailed } from '@/lib/resource-kit/load-failed.tsx';
import { commandCenterViewQueries as queries } from './api/command-center-view.queries.ts';
import { OpenAlertsSection } from './section.tsx';

const deviceLabel = (device: IotDevice) => `${device.model} (${device.hardwareIdentifier})`;

/** A device's newest reading in words, with when it was taken: what a nurse looks for first. */
function LatestReading({ device }: { device: IotDevice }) {
  const { t } = useTranslation('command-centers');
  const language = useLanguage();
  const latest = useQuery(queries.latestReading(device));
  if (latest.isPending || latest.isError) return null;
  return (
    <Text size="sm" role="status">
      {latest.data
        ? t('patient.latest', {
            reading: readingText(latest.data.dataType, latest.data.data, language),
            taken: formatDateTime(latest.data.timestamp),
          })
        : t('patient.noReadings')}
    </Text>
  );
}

/** The IoT devices that measure the person, one chosen (kept in the address), and its readings. */
function VitalSigns({
  userId,
  deviceIds,
  readings,
}: {
  userId: string;
  deviceIds: readonly string[];
  readings: (device: IotDevice) => ReactNode;
}) {
  const { t } = useTranslation('command-centers');
  const devices = useQuery(queries.iotDevicesOf(userId, deviceIds));
  // Another device has its own types: the chart's type chosen for the last one goes with it.
  const [asked, setAsked] = useAddressParam('device', { clears: ['type'] });
  const list = devices.data ?? [];
  const chosen = list.find((device) => device.id === asked) ?? list[0];
  // Sent here for a device (an alert's device name), the reader sees its chart: on a phone it is far below the
  // alerts. Once per device asked, when that device is drawn, and again at each tap of a link that asks to be
  // taken there (`locateVitalSigns`), also for the device already shown; a choice in the picker is already in
  // view, and a chart type chosen below keeps the page where it is.
  const section = useRef<HTMLDivElement>(null);
  const shown = useRef<{ device: string | null; visit: string | null }>({ device: null, visit: null });
  const location = useLocation();
  const sentHere = (location.state as VitalSignsState | null)?.locateVitalSigns === true;
  const located = chosen !== undefined && chosen.id === asked;
  useEffect(() => {
    if (!located) return;
    const again = sentHere && shown.current.visit !== location.key;
    if (shown.current.device === asked && !again) return;
    shown.current = { device: asked, visit: sentHere ? location.key : shown.current.visit };
    const box = section.current?.getBoundingClientRect();
    if (box && (box.top < 0 || box.top > window.innerHeight / 2)) {
      section.current?.scrollIntoView?.({ block: 'start' });
    }
  }, [located, asked, sentHere, location.key]);
  return (
    <Stack gap="sm" component="section" aria-label={t('patient.vitalSigns')} ref={section}>
      <Title order={2} size="h4">
        {t('patient.vitalSigns')}
      </Title>
      {devices.isError ? (
        <LoadFailed
          things={t('patient.vitalSigns')}
          error={devices.error}
          onRetry={() => void devices.refetch()}
        />
      ) : devices.isPending ? (
        <Text c="dimmed" size="sm">
          {t('view.loading')}
        </Text>
      ) : !chosen ? (
        <Text c="dimmed" size="sm">
          {t('patient.noIotDevices')}
        </Text>
      ) : (
        <>
          {list.length > 1 ? (
            <Select
              label={t('patient.iotDevice')}
              data={list.map((device) => ({ value: device.id, label: deviceLabel(device) }))}
              value={chosen.id}
              onChange={(next) => {
                if (!next) return;
                shown.current = { ...shown.current, device: next };
                setAsked(next === list[0]!.id ? null : next);
              }}
              allowDeselect={false}
              maw={420}
            />
          ) : (
            <Text size="sm">
              {t('patient.iotDevice')}: {deviceLabel(chosen)}
            </Text>
          )}
          <LatestReading key={`latest-${chosen.id}`} device={chosen} />
          <Fragment key={chosen.id}>{readings(chosen)}</Fragment>
          <Text size="xs" c="dimmed">
            {t('patient.readAgain')}
          </Text>
        </>
      )}
    </Stack>
  );
}

/**
 * The page; `alertItem` draws an open alert with its actions and `readings` a device's chart (the alerts and IoT
 * features' parts, composed in by the app: features do not import each other).
 */
export function CareTeamPatient({
  userId,
  alertItem,
  readings,
}: {
  userId: string;
  alertItem: (alert: Alert) => ReactNode;
  readings: (device: IotDevice) => ReactNode;
}) {
  const { t } = useTranslation('command-centers');
  useLiveEvents();
  const [page, setPage] = useState(1);
  const user = useQuery(queries.user(userId));
  // The person's alerts are asked once the person is known to be the caller's to read.
  const alerts = useQuery({ ...queries.openAlerts(page, userId), enabled: user.isSuccess });
  const back = (
    <Anchor component={Link} to={paths.commandCenter.to()} size="sm">
      {t('patient.back')}
    </Anchor>
  );

  if (user.error instanceof ApiError && (user.error.status === 404 || user.error.status === 400)) {
    return (
      <Stack gap="md">
        {back}
        <Notice color="gray" title={t('patient.notFoundTitle')}>
          {t('patient.notFound')}
        </Notice>
      </Stack>
    );
  }
  if (user.error instanceof ApiError && user.error.status === 403) {
    return <Notice color="gray">{t('view.notAssigned')}</Notice>;
  }
  const person = user.data;
  return (
    <Stack gap="md">
      {back}
      {user.isError ? (
        <LoadFailed things={t('patient.person')} error={user.error} onRetry={() => void user.refetch()} />
      ) : null}
      <Group gap="sm" align="center">
        <Title order={1}>{person ? personName(person) : t('view.loading')}</Title>
        {person?.localRoles.map((role) => (
          <Badge key={role} variant="light">
            {enumLabel('role', role)}
          </Badge>
        ))}
      </Group>
      <OpenAlertsSection query={alerts} page={page} onPage={setPage} alertItem={alertItem} />
      {person ? (
        <VitalSigns
          userId={userId}
          deviceIds={(person.assignedDevices ?? []).map((device) => device.id)}
          readings={readings}
        />
      ) : null}
    </Stack>
  );
}
