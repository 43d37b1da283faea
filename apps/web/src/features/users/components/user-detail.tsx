// A user's page: profile, roles (with promotion), identity details, address, patient profile, every
// relation linked, the care actions, the one-time enrollment after creation, and the history.
import { Badge, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { localUserRoles } from '@careplane/shared/common/enums';
import { formatDate, formatDateTime } from '@careplane/shared/common/formats';
import { addressLine, enumText, textOf, yesNo } from '@careplane/shared/common/record-labels';
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
import { userLabel, userResource } from '../users.resource.ts';
import { CareActions } from './care-actions.tsx';
import { EnrollmentNotice } from './enrollment-notice.tsx';
import { PatientProfileSection } from './patient-profile.tsx';

function Roles({ roles, variant }: { roles: readonly string[]; variant: 'filled' | 'light' }) {
  if (!roles.length) return null;
  return (
    <Group gap={4}>
      {roles.map((role) => (
        <Badge key={role} variant={variant}>
          {enumText(role)}
        </Badge>
      ))}
    </Group>
  );
}

function UserSections({ user }: { user: User }) {
  const promote = usePromoteUser();
  const info = user.additionalInfo;
  const address = user.address[0];
  const geo = address?.geo as { lat?: number; lng?: number } | undefined;
  const date = (key: string) => formatDate(textOf(info[key]) || undefined);
  return (
    <>
      <DetailSection title="Profile">
        <FieldGrid>
          <DetailField label="Username">{user.username}</DetailField>
          <DetailField label="Email">{user.email}</DetailField>
          <DetailField label="Phone">{user.phoneNumber}</DetailField>
          <DetailField label="Title">{user.title}</DetailField>
          <DetailField label="First name">{user.firstName}</DetailField>
          <DetailField label="Last name">{user.lastName}</DetailField>
          <DetailField label="Primary domain">{user.primaryDomain}</DetailField>
          <DetailField label="Identity assurance level">{user.identityAssuranceLevel}</DetailField>
          <DetailField label="Verified">{yesNo(user.isVerified)}</DetailField>
          <DetailField label="Blocked">{yesNo(user.isBlocked)}</DetailField>
          <DetailField label="Registration">
            {user.registrationCompleted && user.registrationStatus !== 'completed'
              ? `${enumText(user.registrationStatus)} (completed)`
              : enumText(user.registrationStatus)}
          </DetailField>
          <DetailField label="Master ID">{user.masterId}</DetailField>
          <DetailField label="Created">{formatDateTime(user.createdAt)}</DetailField>
          <DetailField label="Updated">{formatDateTime(user.updatedAt)}</DetailField>
          <DetailField label="Created by">
            {user.createdByUser ? <RecordLink resource="users" record={user.createdByUser} /> : null}
          </DetailField>
        </FieldGrid>
      </DetailSection>
      <DetailSection title="Roles">
        <FieldGrid>
          <DetailField label="Global roles">
            <Roles roles={user.roles} variant="filled" />
          </DetailField>
          <DetailField label="Local roles">
            <Roles roles={user.localRoles} variant="light" />
          </DetailField>
        </FieldGrid>
        <PromoteControl
          noun="user"
          name={userLabel(user)}
          roles={localUserRoles}
          current={user.localRoles}
          promote={(role) => promote.mutateAsync({ id: user.id, role })}
        />
      </DetailSection>
      <PatientProfileSection user={user} />
      <DetailSection title="Relations">
        <FieldGrid>
          <DetailField label="Employers">
            <RecordLinks resource="service-providers" records={user.employers} />
          </DetailField>
          <DetailField label="Assigned nurses">
            <RecordLinks resource="users" records={user.assignedNurses} />
          </DetailField>
          <DetailField label="Command centers">
            <RecordLinks resource="command-centers" records={user.commandCenters} />
          </DetailField>
          <DetailField label="Devices">
            <RecordLinks resource="devices" records={user.assignedDevices} />
          </DetailField>
          <DetailField label="Workstations">
            <RecordLinks resource="workstations" records={user.assignedToWorkstations} />
          </DetailField>
          <DetailField label="IoT devices">
            <RecordLinks resource="iot-devices" records={user.assignedIotDevices} />
          </DetailField>
        </FieldGrid>
      </DetailSection>
      <CareActions user={user} />
      <DetailSection title="Identity document and personal details">
        <FieldGrid>
          <DetailField label="Localized name">
            {[textOf(info.localizedFirstName), textOf(info.localizedLastName)].filter(Boolean).join(' ')}
          </DetailField>
          <DetailField label="Date of birth">{date('dateOfBirth')}</DetailField>
          <DetailField label="Gender">{enumText(info.gender)}</DetailField>
          <DetailField label="Document type">{enumText(info.identityDocumentType)}</DetailField>
          <DetailField label="Document number">{textOf(info.identityDocumentNumber)}</DetailField>
          <DetailField label="Issued on">{date('identityDocumentIssueDate')}</DetailField>
          <DetailField label="Expires on">
            {info.identityDocumentIsValidIndefinitely === true
              ? 'Valid indefinitely'
              : date('identityDocumentExpiryDate')}
          </DetailField>
        </FieldGrid>
      </DetailSection>
      <DetailSection title="Address">
        <FieldGrid>
          <DetailField label="Address">{addressLine(address)}</DetailField>
          <DetailField label="Address title">{textOf(address?.title)}</DetailField>
          <DetailField label="Latitude, longitude">
            {geo?.lat !== undefined && geo.lng !== undefined ? `${geo.lat}, ${geo.lng}` : null}
          </DetailField>
        </FieldGrid>
      </DetailSection>
      {user.matrixIdentity ? (
        <DetailSection title="Matrix identity">
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
  return (
    <ResourceDetail resource={userResource} id={id} subtitle={(user) => <Text span>{user.username}</Text>}>
      {(user) => (
        <>
          {enrollment ? (
            <EnrollmentNotice
              enrollment={enrollment}
              onDone={() => void navigate(location.pathname, { replace: true, state: null })}
            />
          ) : null}
          <UserSections user={user} />
          {related}
        </>
      )}
    </ResourceDetail>
  );
}
