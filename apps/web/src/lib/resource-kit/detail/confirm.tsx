// Confirmations that name what they act on: deleting a record, and promoting a user or device (spec §2: a
// warning-styled confirmation whose button reads 'Confirm promotion').
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';

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
    title: `Delete this ${noun}?`,
    children: <Text size="sm">{`The ${noun} “${name}” will be deleted. This cannot be undone.`}</Text>,
    labels: { confirm: `Delete ${noun}`, cancel: 'Cancel' },
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
    title: `Promote this ${noun}?`,
    children: (
      <Text size="sm">
        {`The local roles of “${name}” (${from.length ? from.join(', ') : 'none'}) will be replaced by the single role ${to}.`}
      </Text>
    ),
    labels: { confirm: 'Confirm promotion', cancel: 'Cancel' },
    // A warning: orange, with dark text where white would not read.
    confirmProps: { color: 'orange', autoContrast: true },
    onConfirm,
  });
}
