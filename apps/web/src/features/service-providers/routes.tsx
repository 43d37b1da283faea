// The pages of service providers (spec §2): list, create, detail (the list when no id is given), edit.
import { Anchor, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatDateTime } from '@careplane/shared/common/formats';
import { addressLine, textOf } from '@careplane/shared/common/record-labels';
import {
  serviceProviderCreateSchema,
  serviceProviderUpdateSchema,
} from '@careplane/shared/service-providers/service-providers.contract';
import { paths } from '@/config/paths.ts';
import {
  DetailField,
  DetailSection,
  FieldGrid,
  RecordLink,
  RecordLinks,
} from '@/lib/resource-kit/detail/detail-parts.tsx';
import { ResourceDetail } from '@/lib/resource-kit/detail/resource-detail.tsx';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { ResourceEdit } from '@/lib/resource-kit/form/resource-edit.tsx';
import { ResourceList } from '@/lib/resource-kit/list/resource-list.tsx';
import {
  serviceProviderFields,
  serviceProviderFormRelations,
  serviceProviderResource,
} from './service-providers.resource.ts';

const filtered = (path: string, filter: string) =>
  `${path}?${new URLSearchParams({ filters: filter }).toString()}`;

export function ServiceProviderListPage() {
  return <ResourceList resource={serviceProviderResource} />;
}

export function ServiceProviderDetailPage() {
  const { t } = useTranslation('service-providers');
  const { id } = useParams();
  if (!id) return <ServiceProviderListPage />;
  return (
    <ResourceDetail key={id} resource={serviceProviderResource} id={id}>
      {(provider) => {
        const geo = provider.address.geo as { lat?: number; lng?: number } | undefined;
        return (
          <>
            <DetailSection title={t('detail.section')}>
              <FieldGrid>
                <DetailField label={t('detail.title')}>{provider.title}</DetailField>
                <DetailField label={t('detail.type')}>
                  {enumLabel('serviceProviderType', provider.type)}
                </DetailField>
                <DetailField label={t('detail.isEnabled')}>
                  {provider.isEnabled === undefined
                    ? ''
                    : provider.isEnabled
                      ? t('detail.yes')
                      : t('detail.no')}
                </DetailField>
                <DetailField label={t('detail.address')}>{addressLine(provider.address)}</DetailField>
                <DetailField label={t('detail.addressTitle')}>{textOf(provider.address.title)}</DetailField>
                <DetailField label={t('detail.latLng')}>
                  {geo?.lat !== undefined && geo.lng !== undefined ? `${geo.lat}, ${geo.lng}` : null}
                </DetailField>
                <DetailField label={t('detail.created')}>{formatDateTime(provider.createdAt)}</DetailField>
                <DetailField label={t('detail.createdBy')}>
                  {provider.createdByUser ? (
                    <RecordLink resource="users" record={provider.createdByUser} />
                  ) : null}
                </DetailField>
              </FieldGrid>
            </DetailSection>
            <DetailSection title={t('detail.employees')}>
              <RecordLinks resource="users" records={provider.employees} empty={t('detail.noEmployees')} />
            </DetailSection>
            <DetailSection title={t('detail.prescriptions')}>
              <Group gap="lg">
                <Anchor
                  component={Link}
                  to={filtered(paths.admin.prescriptions.list.to(), `supplier.id~${provider.id}`)}
                >
                  {t('detail.supplied')}
                </Anchor>
                <Anchor
                  component={Link}
                  to={filtered(paths.admin.prescriptions.list.to(), `shipper.id~${provider.id}`)}
                >
                  {t('detail.shipped')}
                </Anchor>
              </Group>
            </DetailSection>
          </>
        );
      }}
    </ResourceDetail>
  );
}

export function ServiceProviderEditPage() {
  const { id } = useParams();
  return (
    <ResourceEdit
      key={id ?? 'new'}
      resource={serviceProviderResource}
      id={id}
      fields={serviceProviderFields}
      createSchema={serviceProviderCreateSchema}
      updateSchema={serviceProviderUpdateSchema}
      relations={serviceProviderFormRelations}
    />
  );
}
