// The pages of service providers (spec §2): list, create, detail (the list when no id is given), edit.
import { Anchor, Group } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { formatDateTime } from '@careplane/shared/common/formats';
import { addressLine, enumText, textOf, yesNo } from '@careplane/shared/common/record-labels';
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
  const { id } = useParams();
  if (!id) return <ServiceProviderListPage />;
  return (
    <ResourceDetail key={id} resource={serviceProviderResource} id={id}>
      {(provider) => {
        const geo = provider.address.geo as { lat?: number; lng?: number } | undefined;
        return (
          <>
            <DetailSection title="Service provider">
              <FieldGrid>
                <DetailField label="Title">{provider.title}</DetailField>
                <DetailField label="Type">{enumText(provider.type)}</DetailField>
                <DetailField label="Enabled">{yesNo(provider.isEnabled)}</DetailField>
                <DetailField label="Address">{addressLine(provider.address)}</DetailField>
                <DetailField label="Address title">{textOf(provider.address.title)}</DetailField>
                <DetailField label="Latitude, longitude">
                  {geo?.lat !== undefined && geo.lng !== undefined ? `${geo.lat}, ${geo.lng}` : null}
                </DetailField>
                <DetailField label="Created">{formatDateTime(provider.createdAt)}</DetailField>
                <DetailField label="Created by">
                  {provider.createdByUser ? (
                    <RecordLink resource="users" record={provider.createdByUser} />
                  ) : null}
                </DetailField>
              </FieldGrid>
            </DetailSection>
            <DetailSection title="Employees">
              <RecordLinks resource="users" records={provider.employees} empty="No employees." />
            </DetailSection>
            <DetailSection title="Prescriptions">
              <Group gap="lg">
                <Anchor
                  component={Link}
                  to={filtered(paths.admin.prescriptions.list.to(), `supplier.id~${provider.id}`)}
                >
                  Supplied by this provider
                </Anchor>
                <Anchor
                  component={Link}
                  to={filtered(paths.admin.prescriptions.list.to(), `shipper.id~${provider.id}`)}
                >
                  Shipped by this provider
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
