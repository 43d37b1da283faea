// /documents/{id}: one document, its signatures and what the user may do with it.
import { Anchor, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { paths } from '@/config/paths.ts';
import { DocumentDetail } from '@/features/documents/components/document-detail.tsx';
import { UserLayout } from '../layouts/user-layout.tsx';

export function Component() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { t } = useTranslation('documents');
  return (
    <UserLayout>
      <Stack gap="md">
        <Anchor component={Link} to={paths.documents.list.to()} size="sm">
          {t('area.allDocuments')}
        </Anchor>
        <DocumentDetail key={id} id={id} onDeleted={() => void navigate(paths.documents.list.to())} />
      </Stack>
    </UserLayout>
  );
}
