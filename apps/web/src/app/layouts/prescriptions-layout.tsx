// The prescriptions area (spec §2): Waiting, Picked-up and Logout, each tab with how many prescriptions it
// holds; a doctor also has the prescriptions they wrote, a patient their own (docs/decisions/031).
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths.ts';
import { useRecordIdParam } from '@/lib/record-id-param.ts';
import { Component as NotFoundPage } from '../routes/not-found.tsx';
import type { CustodyTab, PrescriptionsTab } from '@/features/prescriptions/custody/custody-lists.ts';
import { useTabCounts } from '@/features/prescriptions/custody/custody-lists.ts';
import { areasOf } from '@/lib/areas.ts';
import { useSession } from '@/lib/session.ts';
import { AreaLayout, type AreaMenuEntry } from './area-layout.tsx';

const entries: { tab: PrescriptionsTab; to: () => string }[] = [
  { tab: 'waiting', to: () => paths.prescriptions.waiting.to() },
  { tab: 'picked-up', to: () => paths.prescriptions.pickedUp.to() },
  { tab: 'written', to: () => paths.prescriptions.written.to() },
  { tab: 'mine', to: () => paths.prescriptions.mine.to() },
];

export function Component() {
  const { t } = useTranslation('prescriptions');
  // The id names a pharmacy or a prescription; one that cannot answers with the page not found.
  const { id, known } = useRecordIdParam();
  const user = useSession((state) => state.user);
  const areas = areasOf(user).map((area) => area.key);
  const shown = entries.filter(
    (entry) => (entry.tab !== 'written' && entry.tab !== 'mine') || areas.includes(entry.tab),
  );
  const counts = useTabCounts(
    shown.map((entry): CustodyTab => ({ area: 'prescriptions', tab: entry.tab })),
    id,
  );
  if (!known) return <NotFoundPage />;
  const menu: AreaMenuEntry[] = shown.map((entry, index) => ({
    label: t(`menu.${entry.tab}`),
    to: entry.to(),
    count: counts[index],
    section: entry.tab === 'written',
  }));
  return <AreaLayout label={t('menu.prescriptions')} home={paths.prescriptions.waiting.to()} menu={menu} />;
}
