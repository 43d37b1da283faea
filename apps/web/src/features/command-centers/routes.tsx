// The pages of command centers (spec §2): list, create, detail (the list when no id is given), edit.
import { Anchor, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('command-centers');
  const { id } = useParams();
  if (!id) return <CommandCenterListPage />;
  return (
    <ResourceDetail key={id} resource={commandCenterResource} id={id}>
      {(center) => {
        const geo = center.address.geo as { lat?: number; lng?: number } | undefined;
        return (
          <>
            <DetailSection title={t('detail.section')}>
              <FieldGrid>
                <DetailField label={t('detail.title')}>{center.title}</DetailField>
                <DetailField label={t('detail.address')}>{addressLine(center.address)}</DetailField>
                <DetailField label={t('detail.addressTitle')}>{textOf(center.address.title)}</DetailField>
                <DetailField label={t('detail.county')}>{textOf(center.address.county)}</DetailField>
                <DetailField label={t('detail.latLng')}>
                  {geo?.lat !== undefined && geo.lng !== undefined ? `${geo.lat}, ${geo.lng}` : null}
                </DetailField>
                <DetailField label={t('detail.created')}>{formatDateTime(center.createdAt)}</DetailField>
                <DetailField label={t('detail.createdBy')}>
                  {center.createdByUser ? (
                    <RecordLink resource="users" record={center.createdByUser} />
                  ) : null}
                </DetailField>
              </FieldGrid>
            </DetailSection>
            <DetailSection title={t('detail.assignedUsers')}>
              <RecordLinks resource="users" records={center.assignedUsers} empty={t('detail.noUsers')} />
            </DetailSection>
            <DetailSection title={t('detail.devices')}>
              <RecordLinks resource="devices" records={center.devices} empty={t('detail.noDevices')} />
            </DetailSection>
            <Group gap="lg">
              <Anchor
                component={Link}
                to={filtered(paths.admin.users.list.to(), `commandCenters.id~${center.id}`)}
              >
                {t('detail.itsUsers')}
              </Anchor>
              <Anchor
                component={Link}
                to={filtered(paths.admin.devices.list.to(), `commandCenter.id~${center.id}`)}
              >
                {t('detail.itsDevices')}
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
