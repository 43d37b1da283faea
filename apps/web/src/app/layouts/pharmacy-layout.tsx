// The pharmacy area (spec §2): Waiting, Ready and Picked-up for the current route id, and Logout.
import { useParams } from 'react-router';
import { paths } from '@/config/paths.ts';
import { AreaLayout } from './area-layout.tsx';

export function Component() {
  const { id } = useParams();
  const pharmacy = paths.pharmacy;
  return (
    <AreaLayout
      label="Pharmacy menu"
      home={pharmacy.waiting.to(id)}
      menu={[
        { label: 'Waiting', to: pharmacy.waiting.to(id) },
        { label: 'Ready', to: pharmacy.ready.to(id) },
        { label: 'Picked-up', to: pharmacy.pickedUp.to(id) },
      ]}
    />
  );
}
