// The pages of prescriptions (spec §2): list, detail, and create/edit.
import { useParams } from 'react-router';
import {
  prescriptionSubmissionSchema,
  prescriptionUpdateSchema,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { ResourceEdit } from '@/lib/resource-kit/form/resource-edit.tsx';
import { ResourceList } from '@/lib/resource-kit/list/resource-list.tsx';
import { PrescriptionDetail } from './components/prescription-detail.tsx';
import { prescriptionFields, prescriptionResource } from './prescriptions.resource.ts';

export function PrescriptionListPage() {
  return <ResourceList resource={prescriptionResource} />;
}

export function PrescriptionDetailPage() {
  const { id = '' } = useParams();
  return <PrescriptionDetail key={id} id={id} />;
}

export function PrescriptionEditPage() {
  const { id } = useParams();
  return (
    <ResourceEdit
      key={id ?? 'new'}
      resource={prescriptionResource}
      id={id}
      fields={prescriptionFields}
      createSchema={prescriptionSubmissionSchema}
      updateSchema={prescriptionUpdateSchema}
      relations={['issuer', 'recipient', 'supplier', 'nurse', 'shipper', 'shipperDriver']}
    />
  );
}
