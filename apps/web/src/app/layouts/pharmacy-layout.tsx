// The pharmacy area (spec §2): Waiting, Ready and Picked-up for the current route id, each with how many
// prescriptions it holds, and Logout.
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths.ts';
import { useRecordIdParam } from '@/lib/record-id-param.ts';
import { Component as NotFoundPage } from '../routes/not-found.tsx';
import { useTabCounts } from '@/features/prescriptions/custody/custody-lists.ts';
import { AreaLayout } from './area-layout.tsx';

const tabs = [
  { area: 'pharmacy', tab: 'waiting' },
  { area: 'pharmacy', tab: 'ready' },
  { area: 'pharmacy', tab: 'picked-up' },
] as const;

export function Component() {
  const { t } = useTranslation('prescriptions');
  // The id names a pharmacy or a prescription; one that cannot answers with the page not found.
  const { id, known } = useRecordIdParam();
  const pharmacy = paths.pharmacy;
  const [waiting, ready, pickedUp] = useTabCounts(tabs, id);
  if (!known) return <NotFoundPage />;
  return (
    <AreaLayout
      label={t('menu.pharmacy')}
      home={pharmacy.waiting.to(id)}
      menu={[
        { label: t('menu.waiting'), to: pharmacy.waiting.to(id), count: waiting },
        { label: t('menu.ready'), to: pharmacy.ready.to(id), count: ready },
        { label: t('menu.picked-up'), to: pharmacy.pickedUp.to(id), count: pickedUp },
      ]}
    />
  );
}
