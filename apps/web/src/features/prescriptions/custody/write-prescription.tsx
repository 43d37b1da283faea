// A doctor writes a prescription (decision 084): for a patient of their command centers, to a pharmacy, picked
// up by the patient's nurse or a courier company. It starts as `new` in Written, where the doctor issues it
// (the phone signs it). The choices come from GET /api/prescriptions/choices; the server checks every one.
import { Alert, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import i18next from 'i18next';
import { personName } from '@careplane/shared/common/record-labels';
import {
  prescriptionEndpoints,
  prescriptionSubmissionSchema,
  type Prescription,
  type PrescriptionChoices,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { prescriptionContentText } from '@careplane/shared/prescriptions/prescriptions.columns';
import { paths } from '@/config/paths.ts';
import { api } from '@/lib/api-client.ts';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { notify } from '@/lib/notify.ts';
import { ResourceForm } from '@/lib/resource-kit/form/resource-form.tsx';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { useSession } from '@/lib/session.ts';
import { custodyQueries, useCustodyChanged } from '../api/custody.ts';
import { prescriptionContentField } from '../prescription-content-field.ts';

const joined = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join(' · ');

/**
 * The form's fields, their options read from the choices: the patient's town and nurse tell patients apart, and
 * their name in Thai is there to be found as well as the one written in Latin letters.
 */
export function writeFields(choices: PrescriptionChoices): FieldSpec[] {
  const patients = new Map(choices.patients.map((patient) => [patient.id, patient]));
  const pharmacies = new Map(choices.pharmacies.map((pharmacy) => [pharmacy.id, pharmacy]));
  const couriers = new Map(choices.couriers.map((courier) => [courier.id, courier.title]));
  const nurses = new Map(
    choices.patients.flatMap((patient) =>
      patient.nurse ? [[patient.nurse.id, personName(patient.nurse)]] : [],
    ),
  );
  return [
    {
      kind: 'select',
      name: 'recipient',
      label: () => i18next.t('prescriptions:write.patient'),
      description: () => i18next.t('prescriptions:write.patientHint'),
      required: true,
      searchable: true,
      options: [...patients.keys()],
      optionLabel: (id) => {
        const patient = patients.get(id);
        const nurse = patient?.nurse
          ? i18next.t('prescriptions:write.nurseOf', { name: personName(patient.nurse) })
          : null;
        const discharged =
          patient?.status === 'discharged' ? enumLabel('patientStatus', patient.status) : null;
        return joined(personName(patient), patient?.localizedName, patient?.city, nurse, discharged);
      },
    },
    {
      kind: 'select',
      name: 'supplier',
      label: () => i18next.t('prescriptions:write.pharmacy'),
      required: true,
      searchable: true,
      options: [...pharmacies.keys()],
      optionLabel: (id) => joined(pharmacies.get(id)?.title, pharmacies.get(id)?.city),
    },
    { kind: 'switch', name: 'pickupByNurse', label: () => i18next.t('prescriptions:write.byNurse') },
    {
      kind: 'select',
      name: 'nurse',
      label: () => i18next.t('prescriptions:admin.fields.nurse'),
      description: () => i18next.t('prescriptions:write.nurseHint'),
      searchable: true,
      options: [...nurses.keys()],
      optionLabel: (id) => nurses.get(id) ?? id,
    },
    {
      kind: 'select',
      name: 'shipper',
      label: () => i18next.t('prescriptions:write.courier'),
      description: () => i18next.t('prescriptions:write.courierHint'),
      searchable: true,
      options: [...couriers.keys()],
      optionLabel: (id) => couriers.get(id) ?? id,
    },
    prescriptionContentField,
  ];
}

/** A prescription has at least one item: the form starts with one to fill. */
const oneItem = { content: [{}] };

export function WritePrescription() {
  const { t } = useTranslation('prescriptions');
  const me = useSession((state) => state.user?.id);
  const choices = useQuery(custodyQueries.choices());
  const changed = useCustodyChanged();
  const navigate = useNavigate();
  const fields = useMemo(() => (choices.data ? writeFields(choices.data) : []), [choices.data]);
  // The issuer is the doctor who writes: the form does not ask, the submission's schema still checks it.
  const schema = useMemo(
    () => z.preprocess((body) => ({ ...(body as object), issuer: me }), prescriptionSubmissionSchema),
    [me],
  );
  const written = paths.prescriptions.written.to();
  return (
    <Stack maw={720}>
      <Title order={1} size="h2">
        {t('write.title')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('write.intro')}
      </Text>
      {choices.isPending ? <Loader role="status" aria-label={t('write.loading')} /> : null}
      {choices.isError ? <Alert color="red">{choices.error.message}</Alert> : null}
      {choices.data && choices.data.patients.length === 0 ? (
        <Alert color="yellow">{t('write.noPatients')}</Alert>
      ) : null}
      {choices.data && choices.data.patients.length > 0 ? (
        <ResourceForm
          fields={fields}
          createSchema={schema}
          start={oneItem}
          submitLabel={t('write.submit')}
          cancelTo={written}
          onSubmit={async (body) => {
            const created = await api.post<Prescription>(prescriptionEndpoints.list, body);
            notify({
              color: 'green',
              message: t('write.done', { content: prescriptionContentText(created) }),
            });
            await changed();
            await navigate(written);
          }}
        />
      ) : null}
    </Stack>
  );
}
