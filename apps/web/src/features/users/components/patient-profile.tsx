// A user's patient profile (spec §3): status, emergency contacts and location, created or changed here.
import { Badge, Button, Modal, Stack, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { patientStatuses } from '@careplane/shared/common/enums';
import { addressLine, enumText, textOf } from '@careplane/shared/common/record-labels';
import {
  patientProfileCreateSchema,
  patientProfileUpdateSchema,
  type User,
} from '@careplane/shared/users/users.contract';
import { DetailField, DetailSection, FieldGrid } from '@/lib/resource-kit/detail/detail-parts.tsx';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { ResourceForm } from '@/lib/resource-kit/form/resource-form.tsx';
import { useSavePatientProfile } from '../api/users.queries.ts';
import { notify } from '@/lib/notify.ts';

export const patientProfileFields: readonly FieldSpec[] = [
  {
    kind: 'select',
    name: 'status',
    label: 'Status',
    options: patientStatuses,
    defaultValue: 'enrollment',
    required: true,
  },
  {
    kind: 'list',
    name: 'emergencyContacts',
    label: 'Emergency contacts',
    itemLabel: 'Contact',
    fields: [
      { kind: 'text', name: 'name', label: 'Name', required: true },
      { kind: 'text', name: 'relationship', label: 'Relationship' },
      { kind: 'tel', name: 'phoneNumber', label: 'Phone number' },
      { kind: 'email', name: 'email', label: 'Email' },
      { kind: 'textarea', name: 'notes', label: 'Notes' },
    ],
  },
  {
    kind: 'group',
    name: 'location',
    label: 'Location',
    fields: [
      { kind: 'text', name: 'title', label: 'Place' },
      { kind: 'textarea', name: 'description', label: 'Directions' },
      { kind: 'address', name: 'address', label: 'Address of the place' },
    ],
  },
];

const statusColors: Record<string, string> = { enrollment: 'yellow', enrolled: 'teal', discharged: 'gray' };

export function PatientProfileSection({ user }: { user: User }) {
  const profile = user.patientProfile ?? null;
  const [opened, dialog] = useDisclosure(false);
  const save = useSavePatientProfile();
  const contacts = (profile?.emergencyContacts as Record<string, unknown>[] | undefined) ?? [];
  const location = profile?.location as Record<string, unknown> | null | undefined;
  return (
    <DetailSection
      title="Patient profile"
      actions={
        <Button variant="light" size="xs" onClick={dialog.open}>
          {profile ? 'Edit patient profile' : 'Create patient profile'}
        </Button>
      }
    >
      {profile ? (
        <Stack gap="md">
          <FieldGrid>
            <DetailField label="Status">
              <Badge color={statusColors[textOf(profile.status)] ?? 'gray'} variant="light">
                {enumText(profile.status)}
              </Badge>
            </DetailField>
            <DetailField label="Location">
              {[
                textOf(location?.title),
                addressLine(location?.address as Record<string, unknown> | undefined),
              ]
                .filter(Boolean)
                .join(' · ')}
            </DetailField>
            <DetailField label="Directions">{textOf(location?.description)}</DetailField>
          </FieldGrid>
          <Stack gap={4}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Emergency contacts
            </Text>
            {contacts.length ? (
              <Table.ScrollContainer minWidth={520}>
                <Table aria-label="Emergency contacts" verticalSpacing="xs">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Name</Table.Th>
                      <Table.Th>Relationship</Table.Th>
                      <Table.Th>Phone</Table.Th>
                      <Table.Th>Email</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {contacts.map((contact, index) => (
                      <Table.Tr key={index}>
                        <Table.Td>{textOf(contact.name)}</Table.Td>
                        <Table.Td>{textOf(contact.relationship) || '—'}</Table.Td>
                        <Table.Td>{textOf(contact.phoneNumber) || '—'}</Table.Td>
                        <Table.Td>{textOf(contact.email) || '—'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            ) : (
              <Text size="sm" c="dimmed">
                None
              </Text>
            )}
          </Stack>
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          This user has no patient profile.
        </Text>
      )}
      <Modal
        opened={opened}
        onClose={dialog.close}
        title={profile ? 'Edit the patient profile' : 'Create a patient profile'}
        size="xl"
      >
        <ResourceForm
          fields={patientProfileFields}
          record={profile ?? undefined}
          createSchema={patientProfileCreateSchema}
          updateSchema={patientProfileUpdateSchema}
          submitLabel={profile ? 'Save profile' : 'Create profile'}
          onCancel={dialog.close}
          onSubmit={async (body) => {
            await save.mutateAsync({ user, profileId: profile?.id ?? null, body });
            notify({ color: 'teal', message: 'The patient profile was saved.' });
            dialog.close();
          }}
        />
      </Modal>
    </DetailSection>
  );
}
