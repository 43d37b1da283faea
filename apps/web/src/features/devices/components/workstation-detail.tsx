// A workstation's page: its device, its patients (assigned and removed here, one at a time), the devices
// assigned to it, and its history.
import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@careplane/shared/common/formats';
import type { RecordLike } from '@careplane/shared/common/record-labels';
import type { Workstation } from '@careplane/shared/devices/devices.contract';
import {
  DetailField,
  DetailSection,
  FieldGrid,
  RecordLink,
  RecordLinks,
} from '@/lib/resource-kit/detail/detail-parts.tsx';
import { ResourceDetail } from '@/lib/resource-kit/detail/resource-detail.tsx';
import { RelationSelect } from '@/lib/resource-kit/relation-select.tsx';
import { referenceSources } from '@/lib/resource-kit/references.ts';
import { useWorkstationPatient } from '../api/devices.queries.ts';
import { workstationResource } from '../workstations.resource.ts';
import { notify } from '@/lib/notify.ts';

function Patients({ workstation }: { workstation: Workstation }) {
  const change = useWorkstationPatient();
  const { t } = useTranslation('devices');
  const [chosen, setChosen] = useState<string | null>(null);
  const patients = (workstation.assignedPatients ?? []) as RecordLike[];
  const run = (patientId: string, action: 'add' | 'remove', name: string) =>
    change.mutate(
      { id: workstation.id, patientId, action },
      {
        onSuccess: () => {
          notify({
            color: 'teal',
            message:
              action === 'add'
                ? t('workstationDetail.assigned', { name })
                : t('workstationDetail.removed', { name }),
          });
          if (action === 'add') setChosen(null);
        },
        onError: (error) =>
          notify({
            color: 'red',
            title: t('workstationDetail.changeFailed'),
            message: error.message,
          }),
      },
    );
  const label = (record: RecordLike) => referenceSources.users?.label(record) ?? record.id;
  return (
    <DetailSection title={t('workstationDetail.patients')}>
      <Stack gap="sm">
        {patients.length ? (
          <Table verticalSpacing="xs" aria-label={t('workstationDetail.assignedPatients')}>
            <Table.Tbody>
              {patients.map((patient) => (
                <Table.Tr key={patient.id}>
                  <Table.Td>
                    <RecordLink resource="users" record={patient} />
                  </Table.Td>
                  <Table.Td w={120} ta="right">
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      onClick={() => run(patient.id, 'remove', label(patient))}
                      aria-label={t('workstationDetail.removeNamed', { name: label(patient) })}
                    >
                      {t('workstationDetail.remove')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm" c="dimmed">
            {t('workstationDetail.noPatient')}
          </Text>
        )}
        <Group gap="xs" align="flex-end" wrap="wrap">
          <RelationSelect
            resource="users"
            label={t('workstationDetail.assignPatient')}
            filters={['localRoles~patient']}
            exclude={patients.map((patient) => patient.id)}
            value={chosen}
            onChange={setChosen}
            w={320}
          />
          <Button
            disabled={!chosen}
            loading={change.isPending}
            onClick={() => chosen && run(chosen, 'add', t('workstationDetail.thePatient'))}
          >
            {t('workstationDetail.assign')}
          </Button>
        </Group>
      </Stack>
    </DetailSection>
  );
}

export function WorkstationDetail({ id }: { id: string }) {
  const { t } = useTranslation('devices');
  return (
    <ResourceDetail resource={workstationResource} id={id}>
      {(workstation) => (
        <>
          <DetailSection title={t('workstationDetail.workstation')}>
            <FieldGrid>
              <DetailField label={t('workstationDetail.title')}>{workstation.title}</DetailField>
              <DetailField label={t('workstationDetail.device')}>
                {workstation.device ? <RecordLink resource="devices" record={workstation.device} /> : null}
              </DetailField>
              <DetailField label={t('workstationDetail.assignedDevices')}>
                <RecordLinks resource="devices" records={workstation.assignedWorkstations} />
              </DetailField>
              <DetailField label={t('workstationDetail.created')}>
                {formatDateTime(workstation.createdAt)}
              </DetailField>
              <DetailField label={t('workstationDetail.updated')}>
                {formatDateTime(workstation.updatedAt)}
              </DetailField>
              <DetailField label={t('workstationDetail.createdBy')}>
                {workstation.createdByUser ? (
                  <RecordLink resource="users" record={workstation.createdByUser} />
                ) : null}
              </DetailField>
            </FieldGrid>
          </DetailSection>
          <Patients workstation={workstation} />
        </>
      )}
    </ResourceDetail>
  );
}
