import { describe, expect, it } from 'vitest';
import { isAdmin } from './roles.ts';

describe('isAdmin', () => {
  it('grants the admin area to a first global role of admin or master', () => {
    expect(isAdmin({ roles: ['admin'], localRoles: [] })).toBe(true);
    expect(isAdmin({ roles: ['master', 'public'] })).toBe(true);
  });

  it('grants it to a first local role of application_admin', () => {
    expect(isAdmin({ roles: ['public'], localRoles: ['application_admin', 'nurse'] })).toBe(true);
  });

  it('looks only at the first role of each list', () => {
    expect(isAdmin({ roles: ['public', 'admin'], localRoles: ['nurse', 'application_admin'] })).toBe(false);
  });

  it('refuses everyone else, and a missing user', () => {
    expect(isAdmin({ roles: ['public'], localRoles: ['pharmacist'] })).toBe(false);
    expect(isAdmin({ roles: [], localRoles: [] })).toBe(false);
    expect(isAdmin({ roles: null, localRoles: null })).toBe(false);
    expect(isAdmin(undefined)).toBe(false);
    expect(isAdmin(null)).toBe(false);
  });
});
