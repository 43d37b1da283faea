// A user's patient profile (spec §3): status, emergency contacts and location, created or changed here.
import { Anchor, Badge, Button, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { patientStatuses } from '@careplane/shared/common/enums';
import { addressLine, textOf } from '@careplane/shared/common/record-labels';
import {
  patientProfileCreateSchema,
  patientProfileUpdateSchema,
  type User,
} from '@careplane/shared/users/users.contract';
import { PlainList } from '@/lib/plain-list.tsx';
import { DetailField, DetailSection, FieldGrid } from '@/lib/resource-kit/detail/detail-parts.tsx';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { ResourceForm } from '@/lib/resource-kit/form/resource-form.tsx';
import { useSavePatientProfile } from '../api/users.queries.ts';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { notify } from '@/lib/notify.ts';

export const patientProfileFields: readonly FieldSpec[] = [
  {
    kind: 'select',
    name: 'status',
    label: () => i18next.t('users:patientProfile.status'),
    options: patientStatuses,
    optionLabel: (status) => enumLabel('patientStatus', status),
    defaultValue: 'enrollment',
    required: true,
  },
  {
    kind: 'list',
    name: 'emergencyContacts',
    label: () => i18next.t('users:patientProfile.emergencyContacts'),
    itemLabel: () => i18next.t('users:patientProfile.contact'),
    fields: [
      { kind: 'text', name: 'name', label: () => i18next.t('users:patientProfile.name'), required: true },
      { kind: 'text', name: 'relationship', label: () => i18next.t('users:patientProfile.relationship') },
      { kind: 'tel', name: 'phoneNumber', label: () => i18next.t('users:patientProfile.phoneNumber') },
      { kind: 'email', name: 'email', label: () => i18next.t('users:patientProfile.email') },
      { kind: 'textarea', name: 'notes', label: () => i18next.t('users:patientProfile.notes') },
    ],
  },
  {
    kind: 'group',
    name: 'location',
    label: () => i18next.t('users:patientProfile.location'),
    fields: [
      { kind: 'text', name: 'title', label: () => i18next.t('users:patientProfile.place') },
      { kind: 'textarea', name: 'description', label: () => i18next.t('users:patientProfile.directions') },
      { kind: 'address', name: 'address', label: () => i18next.t('users:patientProfile.placeAddress') },
    ],
  },
];

/** The number a phone dials: what comes before an extension's words ("ต่อ 12", "ext. 3"), digits and a leading +. */
export const dialable = (phone: string) => (/^[\d\s+().-]+/.exec(phone)?.[0] ?? '').replace(/[^\d+]/g, '');

function EmergencyContactEntry({ contact }: { contact: Record<string, unknown> }) {
  const { t } = useTranslation('users');
  const phone = textOf(contact.phoneNumber);
  const email = textOf(contact.email);
  const notes = textOf(contact.notes);
  return (
    <Stack component="li" gap={0}>
      <Text size="sm" fw={600}>
        {[textOf(contact.name), textOf(contact.relationship)].filter(Boolean).join(' · ')}
      </Text>
      {phone ? (
        <Text size="sm">
          {t('patientProfile.phone')}:{' '}
          {dialable(phone) ? <Anchor href={`tel:${dialable(phone)}`}>{phone}</Anchor> : phone}
        </Text>
      ) : null}
      {email ? (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('patientProfile.email')}: <Anchor href={`mailto:${email}`}>{email}</Anchor>
        </Text>
      ) : null}
      {notes ? (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {notes}
        </Text>
      ) : null}
    </Stack>
  );
}

const statusColors: Record<string, string> = { enrollment: 'yellow', enrolled: 'teal', discharged: 'gray' };

export function PatientProfileSection({ user }: { user: User }) {
  const profile = user.patientProfile ?? null;
  const [opened, dialog] = useDisclosure(false);
  const save = useSavePatientProfile();
  const { t } = useTranslation('users');
  const contacts = (profile?.emergencyContacts as Record<string, unknown>[] | undefined) ?? [];
  const location = profile?.location as Record<string, unknown> | null | undefined;
  return (
    <DetailSection
      title={t('patientProfile.title')}
      actions={
        <Button variant="light" size="xs" onClick={dialog.open}>
          {profile ? t('patientProfile.edit') : t('patientProfile.create')}
        </Button>
      }
    >
      {profile ? (
        <Stack gap="md">
          <FieldGrid>
            <DetailField label={t('patientProfile.status')}>
              <Badge color={statusColors[textOf(profile.status)] ?? 'gray'} variant="light">
                {enumLabel('patientStatus', profile.status)}
              </Badge>
            </DetailField>
            <DetailField label={t('patientProfile.location')}>
              {[
                textOf(location?.title),
                addressLine(location?.address as Record<string, unknown> | undefined),
              ]
                .filter(Boolean)
                .join(' · ')}
            </DetailField>
            <DetailField label={t('patientProfile.directions')}>{textOf(location?.description)}</DetailField>
          </FieldGrid>
          <Stack gap={4}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t('patientProfile.emergencyContacts')}
            </Text>
            {contacts.length ? (
              // One contact a block, its number a link to call: a four-column table scrolled sideways on a
              // phone and hid the number a nurse came for.
              <PlainList gap="sm" aria-label={t('patientProfile.emergencyContacts')}>
                {contacts.map((contact, index) => (
                  <EmergencyContactEntry key={index} contact={contact} />
                ))}
              </PlainList>
            ) : (
              <Text size="sm" c="dimmed">
                {t('patientProfile.none')}
              </Text>
            )}
          </Stack>
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          {t('patientProfile.noProfile')}
        </Text>
      )}
      <Modal
        opened={opened}
        onClose={dialog.close}
        title={profile ? t('patientProfile.editTitle') : t('patientProfile.createTitle')}
        size="xl"
      >
        <ResourceForm
          fields={patientProfileFields}
          record={profile ?? undefined}
          createSchema={patientProfileCreateSchema}
          updateSchema={patientProfileUpdateSchema}
          submitLabel={profile ? t('patientProfile.save') : t('patientProfile.createButton')}
          onCancel={dialog.close}
          onSubmit={async (body) => {
            await save.mutateAsync({ user, profileId: profile?.id ?? null, body });
            notify({ color: 'teal', message: t('patientProfile.saved') });
            dialog.close();
          }}
        />
      </Modal>
    </DetailSection>
  );
}
