// Where a signed-in person can work, from their roles: the account page lists these areas and the top bar's
// menu links to them, so nobody has to know an address. Admins reach everything from the admin area. The
// texts are read in the language shown when the areas are asked for (kit:areas.*).
import { isAdmin, type RoleHolder } from '@careplane/shared/auth/roles';
import { commandCenterTeamRoles } from '@careplane/shared/command-centers/command-centers.contract';
import i18next from 'i18next';
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

/**
 * Whether the person may open /command-center: an admin (every center), or someone of a center's care team
 * (decision 027), the server's rule for its scoped calls (command-center-scope.service.ts). Whether a care-team
 * member is assigned to a center only the server knows: the page says so when it answers 403.
 */
export function mayOpenCommandCenter(user: RoleHolder | null | undefined): boolean {
  if (!user) return false;
  return isAdmin(user) || hasAny(user, commandCenterTeamRoles);
}

/** The areas the user's roles open, in the order of the work (documents, which everyone has, last). */
export function areasOf(user: RoleHolder | null | undefined): Area[] {
  if (!user) return [];
  const areas: Area[] = [];
  if (isAdmin(user)) {
    areas.push({
      key: 'admin',
      label: i18next.t('kit:areas.admin.label'),
      link: i18next.t('kit:areas.admin.link'),
      to: paths.admin.root.to(),
    });
  }
  if (hasAny(user, ['pharmacist'])) {
    areas.push({
      key: 'pharmacy',
      label: i18next.t('kit:areas.pharmacy.label'),
      link: i18next.t('kit:areas.pharmacy.link'),
      to: paths.pharmacy.waiting.to(),
    });
  }
  if (hasAny(user, ['nurse', 'courier'])) {
    areas.push({
      key: 'deliveries',
      label: i18next.t('kit:areas.deliveries.label'),
      link: i18next.t('kit:areas.deliveries.link'),
      to: paths.prescriptions.waiting.to(),
    });
  }
  if (hasAny(user, ['doctor'])) {
    areas.push({
      key: 'written',
      label: i18next.t('kit:areas.written.label'),
      link: i18next.t('kit:areas.written.link'),
      to: paths.prescriptions.written.to(),
    });
  }
  if (hasAny(user, ['patient'])) {
    areas.push({
      key: 'mine',
      label: i18next.t('kit:areas.mine.label'),
      link: i18next.t('kit:areas.mine.link'),
      to: paths.prescriptions.mine.to(),
    });
  }
  if (hasAny(user, commandCenterTeamRoles)) {
    areas.push({
      key: 'command-center',
      label: i18next.t('kit:areas.commandCenter.label'),
      link: i18next.t('kit:areas.commandCenter.link'),
      to: paths.commandCenter.to(),
    });
  }
  areas.push({
    key: 'documents',
    label: i18next.t('kit:areas.documents.label'),
    link: i18next.t('kit:areas.documents.link'),
    to: paths.documents.list.to(),
  });
  return areas;
}
