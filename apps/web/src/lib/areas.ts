// Where a signed-in person can work, from their roles: the account page lists these areas and the top bar's
// menu links to them, so nobody has to know an address. Admins reach everything from the admin area.
import { isAdmin, type RoleHolder } from '@careplane/shared/auth/roles';
import { commandCenterTeamRoles } from '@careplane/shared/command-centers/command-centers.contract';
import { paths } from '@/config/paths.ts';

export interface Area {
  key: 'admin' | 'command-center' | 'pharmacy' | 'deliveries' | 'written' | 'mine' | 'documents';
  /** Short, for the top bar's menu. */
  label: string;
  /** A sentence, for the account page. */
  link: string;
  to: string;
}

const hasAny = (user: RoleHolder, roles: readonly string[]) =>
  roles.some((role) => user.localRoles?.includes(role));

/** The areas the user's roles open, in the order of the work (documents, which everyone has, last). */
export function areasOf(user: RoleHolder | null | undefined): Area[] {
  if (!user) return [];
  const areas: Area[] = [];
  if (isAdmin(user)) {
    areas.push({
      key: 'admin',
      label: 'Admin area',
      link: 'Go to the admin area',
      to: paths.admin.root.to(),
    });
  }
  if (hasAny(user, ['pharmacist'])) {
    areas.push({
      key: 'pharmacy',
      label: 'Pharmacy',
      link: 'Go to the pharmacy: prescriptions to prepare',
      to: paths.pharmacy.waiting.to(),
    });
  }
  if (hasAny(user, ['nurse', 'courier'])) {
    areas.push({
      key: 'deliveries',
      label: 'Pickups and deliveries',
      link: 'Go to your pickups and deliveries',
      to: paths.prescriptions.waiting.to(),
    });
  }
  if (hasAny(user, ['doctor'])) {
    areas.push({
      key: 'written',
      label: 'Prescriptions you wrote',
      link: 'Go to the prescriptions you wrote: issue them from here',
      to: paths.prescriptions.written.to(),
    });
  }
  if (hasAny(user, ['patient'])) {
    areas.push({
      key: 'mine',
      label: 'Your prescriptions',
      link: 'See your prescriptions and where they are',
      to: paths.prescriptions.mine.to(),
    });
  }
  if (hasAny(user, commandCenterTeamRoles)) {
    areas.push({
      key: 'command-center',
      label: 'Command center',
      link: 'Go to your command center',
      to: paths.commandCenter.to(),
    });
  }
  areas.push({
    key: 'documents',
    label: 'Documents',
    link: 'Your documents: store, share and sign PDFs',
    to: paths.documents.list.to(),
  });
  return areas;
}
