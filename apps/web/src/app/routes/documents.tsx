// /documents: the signed-in user's documents (own, shared with them, waiting for their signature).
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths.ts';
import { DocumentsArea } from '@/features/documents/components/documents-area.tsx';
import { UserLayout } from '../layouts/user-layout.tsx';

export function Component() {
  const navigate = useNavigate();
  return (
    <UserLayout>
      <DocumentsArea
        detailPath={paths.documents.detail.to}
        onOpen={(document) => void navigate(paths.documents.detail.to(document.id))}
      />
    </UserLayout>
  );
}
