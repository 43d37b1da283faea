// The pharmacy area (spec §2): Waiting, Ready and Picked-up for the current route id, each with how many
// prescriptions it holds, and Logout.
import { useParams } from 'react-router';
import { paths } from '@/config/paths.ts';
import { useTabCounts } from '@/features/prescriptions/custody/custody-lists.ts';
import { AreaLayout } from './area-layout.tsx';

const tabs = [
  { area: 'pharmacy', tab: 'waiting' },
  { area: 'pharmacy', tab: 'ready' },
  { area: 'pharmacy', tab: 'picked-up' },
] as const;

export function Component() {
  const { id } = useParams();
  const pharmacy = paths.pharmacy;
  const [waiting, ready, pickedUp] = useTabCounts(tabs, id);
  return (
    <AreaLayout
      label="Pharmacy menu"
      home={pharmacy.waiting.to(id)}
      menu={[
        { label: 'Waiting', to: pharmacy.waiting.to(id), count: waiting },
        { label: 'Ready', to: pharmacy.ready.to(id), count: ready },
        { label: 'Picked-up', to: pharmacy.pickedUp.to(id), count: pickedUp },
      ]}
    />
  );
}
