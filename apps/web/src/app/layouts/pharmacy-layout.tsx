// The pharmacy area (spec §2): Waiting, Ready and Picked-up for the current route id, each with how many
// prescriptions it holds, and Logout.
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isRecordId } from '@careplane/shared/common/primitives';
import { paths } from '@/config/paths.ts';
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
  // The id names a pharmacy or a prescription: anything but a uuid names no page (and is not asked for).
  const { id: named } = useParams();
  const known = named === undefined || isRecordId(named);
  const id = known ? named : undefined;
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
