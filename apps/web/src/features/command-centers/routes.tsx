// The pages of command centers (spec §2): list, create, detail (the list when no id is given), edit.
import { Anchor, Group } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { formatDateTime } from '@careplane/shared/common/formats';
import { addressLine, textOf } from '@careplane/shared/common/record-labels';
import {
  commandCenterCreateSchema,
  commandCenterUpdateSchema,
} from '@careplane/shared/command-centers/command-centers.contract';
import { paths } from '@/config/paths.ts';
import {
  DetailField,
  DetailSection,
  FieldGrid,
  RecordLink,
  RecordLinks,
} from '@/lib/resource-kit/detail/detail-parts.tsx';
import { ResourceDetail } from '@/lib/resource-kit/detail/resource-detail.tsx';
import { ResourceEdit } from '@/lib/resource-kit/form/resource-edit.tsx';
import { ResourceList } from '@/lib/resource-kit/list/resource-list.tsx';
import {
  commandCenterFields,
  commandCenterFormRelations,
  commandCenterResource,
} from './command-centers.resource.ts';

const filtered = (path: string, filter: string) =>
  `${path}?${new URLSearchParams({ filters: filter }).toString()}`;

export function CommandCenterListPage() {
  return <ResourceList resource={commandCenterResource} />;
}

export function CommandCenterDetailPage() {
  const { id } = useParams();
  if (!id) return <CommandCenterListPage />;
  return (
    <ResourceDetail key={id} resource={commandCenterResource} id={id}>
      {(center) => {
        const geo = center.address.geo as { lat?: number; lng?: number } | undefined;
        return (
          <>
            <DetailSection title="Command center">
              <FieldGrid>
                <DetailField label="Title">{center.title}</DetailField>
                <DetailField label="Address">{addressLine(center.address)}</DetailField>
                <DetailField label="Address title">{textOf(center.address.title)}</DetailField>
                <DetailField label="County or province">{textOf(center.address.county)}</DetailField>
                <DetailField label="Latitude, longitude">
                  {geo?.lat !== undefined && geo.lng !== undefined ? `${geo.lat}, ${geo.lng}` : null}
                </DetailField>
                <DetailField label="Created">{formatDateTime(center.createdAt)}</DetailField>
                <DetailField label="Created by">
                  {center.createdByUser ? (
                    <RecordLink resource="users" record={center.createdByUser} />
                  ) : null}
                </DetailField>
              </FieldGrid>
            </DetailSection>
            <DetailSection title="Assigned users">
              <RecordLinks resource="users" records={center.assignedUsers} empty="No users are assigned." />
            </DetailSection>
            <DetailSection title="Devices">
              <RecordLinks resource="devices" records={center.devices} empty="No devices." />
            </DetailSection>
            <Group gap="lg">
              <Anchor
                component={Link}
                to={filtered(paths.admin.users.list.to(), `commandCenters.id~${center.id}`)}
              >
                Its users in the users list
              </Anchor>
              <Anchor
                component={Link}
                to={filtered(paths.admin.devices.list.to(), `commandCenter.id~${center.id}`)}
              >
                Its devices in the devices list
              </Anchor>
            </Group>
          </>
        );
      }}
    </ResourceDetail>
  );
}

export function CommandCenterEditPage() {
  const { id } = useParams();
  return (
    <ResourceEdit
      key={id ?? 'new'}
      resource={commandCenterResource}
      id={id}
      fields={commandCenterFields}
      createSchema={commandCenterCreateSchema}
      updateSchema={commandCenterUpdateSchema}
      relations={commandCenterFormRelations}
    />
  );
}
