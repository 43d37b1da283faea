// Cancelling a runner job asks first, naming the job and saying what it means: the device will not run it, and
// it cannot be taken back (a new job would be needed). One place for the device's page and the job's own page.
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useTranslation } from 'react-i18next';
import type { DeviceJob } from '@careplane/shared/devices/devices.contract';
import { notify } from '@/lib/notify.ts';
import { jobPurposeText } from '@/lib/i18n/job-purpose.ts';
import { useCancelJob } from '../api/devices.queries.ts';

export function useCancelJobAction() {
  const cancel = useCancelJob();
  const { t } = useTranslation('devices');
  const ask = (job: Pick<DeviceJob, 'id' | 'purpose'>) =>
    modals.openConfirmModal({
      title: t('jobs.confirmCancelTitle'),
      children: (
        <Text size="sm">{t('jobs.confirmCancelText', { purpose: jobPurposeText(job.purpose) })}</Text>
      ),
      labels: { confirm: t('jobs.confirmCancel'), cancel: t('jobs.keepJob') },
      confirmProps: { color: 'red.8' },
      onConfirm: () =>
        cancel.mutate(job.id, {
          onSuccess: () => notify({ message: t('jobs.cancelled') }),
          onError: (error) => notify({ color: 'red', title: t('jobs.cancelFailed'), message: error.message }),
        }),
    });
  return { ask, pending: cancel.isPending };
}
