// Confirmations that name what they act on: deleting a record, and promoting a user or device (spec §2: a
// warning-styled confirmation whose button reads 'Confirm promotion').
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import i18next from 'i18next';
import { specTexts } from '@/lib/i18n/spec-texts.ts';

export function confirmDelete({
  noun,
  name,
  onConfirm,
}: {
  noun: string;
  name: string;
  onConfirm: () => void;
}) {
  modals.openConfirmModal({
    title: i18next.t('kit:detail.confirmDeleteTitle', { noun }),
    children: <Text size="sm">{i18next.t('kit:detail.confirmDeleteText', { noun, name })}</Text>,
    labels: { confirm: i18next.t('kit:detail.confirmDelete', { noun }), cancel: i18next.t('kit:cancel') },
    // red.8: white text on it reads at 4.5:1.
    confirmProps: { color: 'red.8' },
    onConfirm,
  });
}

export function confirmPromotion({
  noun,
  name,
  from,
  to,
  onConfirm,
}: {
  noun: string;
  name: string;
  from: readonly string[];
  to: string;
  onConfirm: () => void;
}) {
  modals.openConfirmModal({
    title: i18next.t('kit:promote.title', { noun }),
    children: (
      <Text size="sm">
        {i18next.t('kit:promote.text', {
          name,
          from: from.length ? from.join(', ') : i18next.t('kit:promote.noRoles'),
          to,
        })}
      </Text>
    ),
    // The spec quotes the button's text: it stays English in both languages.
    labels: { confirm: specTexts.confirmPromotion, cancel: i18next.t('kit:cancel') },
    // A warning: orange, with dark text where white would not read.
    confirmProps: { color: 'orange', autoContrast: true },
    onConfirm,
  });
}
