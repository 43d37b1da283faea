// The pages of users and patients (spec §2): list, detail, create/edit, and the patients list.
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { localUserRoles } from '@careplane/shared/common/enums';
import { userCreateSchema, userUpdateSchema } from '@careplane/shared/users/users.contract';
import { ResourceEdit } from '@/lib/resource-kit/form/resource-edit.tsx';
import { ResourceList } from '@/lib/resource-kit/list/resource-list.tsx';
import { UserDetail } from './components/user-detail.tsx';
import { patientResource, userFields, userFormRelations, userResource } from './users.resource.ts';

export function UserListPage() {
  return <ResourceList resource={userResource} />;
}

export function PatientListPage() {
  const { t } = useTranslation('users');
  return <ResourceList resource={patientResource} subtitle={t('patients.subtitle')} />;
}

export function UserDetailPage({ related }: { related?: ReactNode }) {
  const { id = '' } = useParams();
  return <UserDetail key={id} id={id} related={related} />;
}

export function UserEditPage() {
  const { t } = useTranslation('users');
  const { id } = useParams();
  const [params] = useSearchParams();
  // "New patient" opens the form with the patient role chosen.
  const asked = params.get('role');
  const role = localUserRoles.find((known) => known === asked);
  const start = useMemo(() => (role ? { localRoles: [role] } : undefined), [role]);
  return (
    <ResourceEdit
      key={id ?? 'new'}
      resource={userResource}
      id={id}
      fields={userFields}
      start={start}
      createSchema={userCreateSchema}
      updateSchema={userUpdateSchema}
      relations={userFormRelations}
      keepCreatedAnswer
      createTitle={role === 'patient' ? t('patients.newTitle') : undefined}
    />
  );
}
