// Promotion (spec §2, §6): an admin replaces a user's or a device's local roles with one chosen role, after
// a warning-styled confirmation whose button reads 'Confirm promotion'.
import { Button, Group, Select } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { enumText } from '@careplane/shared/common/record-labels';
import { uiText } from '@/lib/i18n/translation.ts';
import type { OptionLabel } from '../resource.ts';
import { confirmPromotion } from './confirm.tsx';
import { notify } from '@/lib/notify.ts';

export interface PromoteControlProps {
  noun: string;
  name: string;
  roles: readonly string[];
  current: readonly string[];
  /** Sends `{ localRoles: [role] }`. */
  promote: (role: string) => Promise<unknown>;
  /** How the area names a role; without it roles read as written. */
  roleLabel?: OptionLabel;
}

export function PromoteControl({ noun, name, roles, current, promote, roleLabel }: PromoteControlProps) {
  const { t } = useTranslation('kit');
  // The choices read as words; the sentences name a role as written unless the area names it.
  const label = (value: string) => (roleLabel ? uiText(roleLabel(value)) : enumText(value));
  const named = (value: string) => (roleLabel ? uiText(roleLabel(value)) : value);
  const [role, setRole] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const start = () => {
    if (!role) return;
    confirmPromotion({
      noun,
      name,
      from: current.map(named),
      to: named(role),
      onConfirm: () => {
        setSending(true);
        promote(role)
          .then(() => {
            notify({
              color: 'teal',
              message: t('promote.done', { name, role: named(role) }),
            });
            setRole(null);
          })
          .catch((error: unknown) =>
            notify({
              color: 'red',
              title: t('promote.couldNotPromote'),
              message: error instanceof Error ? error.message : String(error),
            }),
          )
          .finally(() => setSending(false));
      },
    });
  };
  return (
    <Group gap="xs" align="flex-end" wrap="wrap">
      <Select
        label={t('promote.toSingleRole')}
        data={roles.map((value) => ({ value, label: label(value) }))}
        value={role}
        onChange={setRole}
        placeholder={t('promote.chooseRole')}
        w={260}
      />
      <Button color="orange" variant="light" disabled={!role} loading={sending} onClick={start}>
        {t('promote.promote')}
      </Button>
    </Group>
  );
}
