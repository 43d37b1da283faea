// The prescriptions area (spec §2): Waiting, Picked-up and Logout.
import { paths } from '../../config/paths.ts';
import { AreaLayout } from './area-layout.tsx';

export function Component() {
  const prescriptions = paths.prescriptions;
  return (
    <AreaLayout
      label="Prescriptions menu"
      home={prescriptions.waiting.to()}
      menu={[
        { label: 'Waiting', to: prescriptions.waiting.to() },
        { label: 'Picked-up', to: prescriptions.pickedUp.to() },
      ]}
    />
  );
}
