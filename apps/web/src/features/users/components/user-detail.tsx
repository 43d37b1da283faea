// A user's page: profile, roles (with promotion), identity details, address, patient profile, every
// relation linked, the care actions, the phones (revoking a lost one, enrolling another), the one-time
// enrollment after creation, and the history.
import { Badge, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { localUserRoles } from '@careplane/shared/common/enums';
import { formatDate, formatDateTime } from '@careplane/shared/common/formats';
import { addressLine, localizedPersonName, textOf } from '@careplane/shared/common/record-labels';
import type { User } from '@careplane/shared/users/users.contract';
import {
  DetailField,
  DetailSection,
  FieldGrid,
  JsonValue,
  RecordLink,
  RecordLinks,
} from '@/lib/resource-kit/detail/detail-parts.tsx';
import { PromoteControl } from '@/lib/resource-kit/detail/promote.tsx';
import { ResourceDetail } from '@/lib/resource-kit/detail/resource-detail.tsx';
import { usePromoteUser } from '../api/users.queries.ts';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { userLabel, userResource } from '../users.resource.ts';
import { CareActions } from './care-actions.tsx';
import { EnrollmentNotice } from './enrollment-notice.tsx';
import { PatientProfileSection } from './patient-profile.tsx';
import { PhonesSection } from './phones.tsx';

function Roles({ roles, variant }: { roles: readonly string[]; variant: 'filled' | 'light' }) {
  if (!roles.length) return null;
  return (
    <Group gap={4}>
      {roles.map((role) => (
        <Badge key={role} variant={variant}>
          {enumLabel('role', role)}
        </Badge>
      ))}
    </Group>
  );
}

function UserSections({ user, onCodeIssued }: { user: User; onCodeIssued?: (() => void) | undefined }) {
  const promote = usePromoteUser();
  const info = user.additionalInfo;
  const address = user.address[0];
  const geo = address?.geo as { lat?: number; lng?: number } | undefined;
  const date = (key: string) => formatDate(textOf(info[key]) || undefined);
  const { t } = useTranslation('users');
  const yesNo = (value: boolean | null | undefined) =>
    value === true ? t('detail.yes') : value === false ? t('detail.no') : '';
  const registration = enumLabel('registrationStatus', user.registrationStatus);
  return (
    <>
      <DetailSection title={t('detail.profile')}>
        <FieldGrid>
          <DetailField label={t('detail.username')}>{user.username}</DetailField>
          <DetailField label={t('detail.email')}>{user.email}</DetailField>
          <DetailField label={t('detail.phone')}>{user.phoneNumber}</DetailField>
          <DetailField label={t('detail.title')}>{user.title}</DetailField>
          <DetailField label={t('detail.firstName')}>{user.firstName}</DetailField>
          <DetailField label={t('detail.lastName')}>{user.lastName}</DetailField>
          <DetailField label={t('detail.primaryDomain')}>{user.primaryDomain}</DetailField>
          <DetailField label={t('detail.identityAssuranceLevel')}>
            {enumLabel('assuranceLevel', user.identityAssuranceLevel)}
          </DetailField>
          <DetailField label={t('detail.verified')}>{yesNo(user.isVerified)}</DetailField>
          <DetailField label={t('detail.blocked')}>{yesNo(user.isBlocked)}</DetailField>
          <DetailField label={t('detail.registration')}>
            {user.registrationCompleted && user.registrationStatus !== 'completed'
              ? t('detail.registrationCompleted', { status: registration })
              : registration}
          </DetailField>
          <DetailField label={t('detail.masterId')}>{user.masterId}</DetailField>
          <DetailField label={t('detail.created')}>{formatDateTime(user.createdAt)}</DetailField>
          <DetailField label={t('detail.updated')}>{formatDateTime(user.updatedAt)}</DetailField>
          <DetailField label={t('detail.createdBy')}>
            {user.createdByUser ? <RecordLink resource="users" record={user.createdByUser} /> : null}
          </DetailField>
        </FieldGrid>
      </DetailSection>
      <DetailSection title={t('detail.roles')}>
        <FieldGrid>
          <DetailField label={t('detail.globalRoles')}>
            <Roles roles={user.roles} variant="filled" />
          </DetailField>
          <DetailField label={t('detail.localRoles')}>
            <Roles roles={user.localRoles} variant="light" />
          </DetailField>
        </FieldGrid>
        <PromoteControl
          noun={t('noun')}
          name={userLabel(user)}
          roles={localUserRoles}
          current={user.localRoles}
          roleLabel={(role) => enumLabel('role', role)}
          promote={(role) => promote.mutateAsync({ id: user.id, role })}
        />
      </DetailSection>
      <PatientProfileSection user={user} />
      <DetailSection title={t('detail.relations')}>
        <FieldGrid>
          <DetailField label={t('detail.employers')}>
            <RecordLinks resource="service-providers" records={user.employers} />
          </DetailField>
          <DetailField label={t('detail.assignedNurses')}>
            <RecordLinks resource="users" records={user.assignedNurses} />
          </DetailField>
          <DetailField label={t('detail.commandCenters')}>
            <RecordLinks resource="command-centers" records={user.commandCenters} />
          </DetailField>
          <DetailField label={t('detail.devices')}>
            <RecordLinks resource="devices" records={user.assignedDevices} />
          </DetailField>
          <DetailField label={t('detail.workstations')}>
            <RecordLinks resource="workstations" records={user.assignedToWorkstations} />
          </DetailField>
          <DetailField label={t('detail.iotDevices')}>
            <RecordLinks resource="iot-devices" records={user.assignedIotDevices} />
          </DetailField>
        </FieldGrid>
      </DetailSection>
      <CareActions user={user} />
      <PhonesSection user={user} onIssued={onCodeIssued} />
      <DetailSection title={t('detail.identity')}>
        <FieldGrid>
          <DetailField label={t('detail.localizedName')}>{localizedPersonName(user)}</DetailField>
          <DetailField label={t('detail.dateOfBirth')}>{date('dateOfBirth')}</DetailField>
          <DetailField label={t('detail.gender')}>{enumLabel('gender', info.gender)}</DetailField>
          <DetailField label={t('detail.documentType')}>
            {enumLabel('identityDocumentType', info.identityDocumentType)}
          </DetailField>
          <DetailField label={t('detail.documentNumber')}>{textOf(info.identityDocumentNumber)}</DetailField>
          <DetailField label={t('detail.issuedOn')}>{date('identityDocumentIssueDate')}</DetailField>
          <DetailField label={t('detail.expiresOn')}>
            {info.identityDocumentIsValidIndefinitely === true
              ? t('detail.validIndefinitely')
              : date('identityDocumentExpiryDate')}
          </DetailField>
        </FieldGrid>
      </DetailSection>
      <DetailSection title={t('detail.address')}>
        <FieldGrid>
          <DetailField label={t('detail.address')}>{addressLine(address)}</DetailField>
          <DetailField label={t('detail.addressTitle')}>{textOf(address?.title)}</DetailField>
          <DetailField label={t('detail.latLng')}>
            {geo?.lat !== undefined && geo.lng !== undefined ? `${geo.lat}, ${geo.lng}` : null}
          </DetailField>
        </FieldGrid>
      </DetailSection>
      {user.matrixIdentity ? (
        <DetailSection title={t('detail.matrixIdentity')}>
          <JsonValue value={user.matrixIdentity} />
        </DetailSection>
      ) : null}
    </>
  );
}

/** `related`: sections the app adds below (the user's alerts). */
export function UserDetail({ id, related }: { id: string; related?: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const created = (location.state as { created?: User } | null)?.created;
  const enrollment = created?.id === id ? created.enrollment : undefined;
  // The creation's code is shown until it is done with, or until a fresh code ends it (decision 110).
  const forgetCreated = () => void navigate(location.pathname, { replace: true, state: null });
  return (
    <ResourceDetail resource={userResource} id={id} subtitle={(user) => <Text span>{user.username}</Text>}>
      {(user) => (
        <>
          {enrollment ? (
            <EnrollmentNotice userId={id} enrollment={enrollment} onDone={forgetCreated} />
          ) : null}
          <UserSections user={user} onCodeIssued={enrollment ? forgetCreated : undefined} />
          {related}
        </>
      )}
    </ResourceDetail>
  );
}
