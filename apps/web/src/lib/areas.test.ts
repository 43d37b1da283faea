// The areas a person's roles open: what the account page and the top bar's menu link to.
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { areasOf } from './areas.ts';

const keys = (roles: string[], localRoles: string[]) =>
  areasOf({ roles, localRoles }).map((area) => `${area.key} ${area.to}`);

describe('areasOf', () => {
  it.each([
    [['public'], ['pharmacist'], ['pharmacy /pharmacy', 'documents /documents']],
    [['public'], ['courier'], ['deliveries /prescriptions', 'documents /documents']],
    [
      ['public'],
      ['nurse'],
      ['deliveries /prescriptions', 'command-center /command-center', 'documents /documents'],
    ],
    [
      ['public'],
      ['doctor'],
      ['written /prescriptions/written', 'command-center /command-center', 'documents /documents'],
    ],
    [['public'], ['patient'], ['mine /prescriptions/mine', 'documents /documents']],
    [['public'], ['supervisor'], ['command-center /command-center', 'documents /documents']],
    [['admin'], ['none'], ['admin /admin', 'documents /documents']],
    [['public'], ['application_admin'], ['admin /admin', 'documents /documents']],
    [['public'], [], ['documents /documents']],
  ])('roles %j and local roles %j open %j', (roles, localRoles, expected) => {
    expect(keys(roles, localRoles)).toEqual(expected);
  });

  it('opens nothing for nobody', () => {
    expect(areasOf(null)).toEqual([]);
  });

  it('names the areas in the language shown', async () => {
    const admin = { roles: ['admin'], localRoles: [] };
    expect(areasOf(admin)[0]).toMatchObject({ label: 'Admin area', link: 'Go to the admin area' });
    await i18next.changeLanguage('th');
    expect(areasOf(admin)[0]).toMatchObject({ label: 'ส่วนผู้ดูแลระบบ', link: 'ไปที่ส่วนผู้ดูแลระบบ' });
  });
});
