// Who may use the admin area (decisions §4): the first global role is admin or master, or the first local
// role is application_admin. The console's guard and the server's checks read the same rule.

export interface RoleHolder {
  roles?: readonly string[] | null;
  localRoles?: readonly string[] | null;
}

export function isAdmin(user: RoleHolder | null | undefined): boolean {
  if (!user) return false;
  const firstRole = user.roles?.[0];
  return firstRole === 'admin' || firstRole === 'master' || user.localRoles?.[0] === 'application_admin';
}
