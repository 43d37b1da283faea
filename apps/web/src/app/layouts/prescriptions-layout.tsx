// The prescriptions area (spec §2): Waiting, Picked-up and Logout; a doctor also has the prescriptions they
// wrote, a patient their own (docs/decisions/031).
import { paths } from '@/config/paths.ts';
import { areasOf } from '@/lib/areas.ts';
import { useSession } from '@/lib/session.ts';
import { AreaLayout, type AreaMenuEntry } from './area-layout.tsx';

export function Component() {
  const prescriptions = paths.prescriptions;
  const user = useSession((state) => state.user);
  const areas = areasOf(user).map((area) => area.key);
  const menu: AreaMenuEntry[] = [
    { label: 'Waiting', to: prescriptions.waiting.to() },
    { label: 'Picked-up', to: prescriptions.pickedUp.to() },
  ];
  if (areas.includes('written')) menu.push({ label: 'Written', to: prescriptions.written.to() });
  if (areas.includes('mine')) menu.push({ label: 'Mine', to: prescriptions.mine.to() });
  return <AreaLayout label="Prescriptions menu" home={prescriptions.waiting.to()} menu={menu} />;
}
