// Promotion (spec §2, §6): an admin replaces a user's or a device's local roles with one chosen role, after
// a warning-styled confirmation whose button reads 'Confirm promotion'.
import { Button, Group, Select } from '@mantine/core';
import { useState } from 'react';
import { enumText } from '@careplane/shared/common/record-labels';
import { confirmPromotion } from './confirm.tsx';
import { notify } from '@/lib/notify.ts';

export interface PromoteControlProps {
  noun: string;
  name: string;
  roles: readonly string[];
  current: readonly string[];
  /** Sends `{ localRoles: [role] }`. */
  promote: (role: string) => Promise<unknown>;
}

export function PromoteControl({ noun, name, roles, current, promote }: PromoteControlProps) {
  const [role, setRole] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const start = () => {
    if (!role) return;
    confirmPromotion({
      noun,
      name,
      from: current,
      to: role,
      onConfirm: () => {
        setSending(true);
        promote(role)
          .then(() => {
            notify({
              color: 'teal',
              message: `“${name}” now has the single local role ${role}.`,
            });
            setRole(null);
          })
          .catch((error: unknown) =>
            notify({
              color: 'red',
              title: 'Could not promote.',
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
        label="Promote to the single role"
        data={roles.map((value) => ({ value, label: enumText(value) }))}
        value={role}
        onChange={setRole}
        placeholder="Choose a role"
        w={260}
      />
      <Button color="orange" variant="light" disabled={!role} loading={sending} onClick={start}>
        Promote
      </Button>
    </Group>
  );
}
