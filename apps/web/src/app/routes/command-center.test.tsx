// /command-center for each kind of person: the care team and admins get the view; anyone else (a patient, a
// driver) reads once that the page is not theirs, and none of the view's reads is asked (the server answers
// each with 403). The care team acknowledges and closes its centers' open alerts there, through the command
// center's calls (decision 079).
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alertSchema } from '@careplane/shared/alerts/alerts.contract';
import { deviceJobSchema, deviceSchema } from '@careplane/shared/devices/devices.contract';
import { userSchema } from '@careplane/shared/users/users.contract';
import { fakeAlert, fakeList } from '@/test/admin-fakes.ts';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';
import { fakeNetwork, json, type FakeNetwork } from '@/test/network.ts';

let network: FakeNetwork;
beforeEach(() => {
  resetSession();
  network = fakeNetwork()
    .on('GET', '/api/users/me', () => json(makeUser()))
    .on('GET', '/api/command-centers/users', () => json(fakeList(userSchema, [])))
    .on('GET', '/api/command-centers/devices', () => json(fakeList(deviceSchema, [])))
    .on('GET', '/api/command-centers/alerts', () => json(fakeList(alertSchema, [])))
    .on('GET', '/api/command-centers/jobs', () => json(fakeList(deviceJobSchema, [])))
    .install();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const NOT_ALLOWED =
  'You may not open the command center: it is for admins and for the care teams of command centers (supervisors, nurses and doctors).';

/** What the page asked of the command-center calls and of the live events. */
const commandCenterCalls = () =>
  network.calls.filter(
    (call) =>
      call.url.pathname.startsWith('/api/command-centers/') || call.url.pathname.startsWith('/api/events'),
  );

describe('/command-center', () => {
  it.each([
    ['a patient', ['patient']],
    ['a courier', ['courier']],
    ['a pharmacist', ['pharmacist']],
    ['someone without a role', []],
  ])('tells %s once that it is not theirs, and asks the server nothing for it', async (_who, localRoles) => {
    signIn(makeUser({ roles: ['public'], localRoles }));
    network.on('GET', '/api/users/me', () => json(makeUser({ roles: ['public'], localRoles })));
    renderApp('/command-center');
    expect(await screen.findByText(NOT_ALLOWED)).toBeVisible();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByRole('heading', { name: 'Command center' })).toBeNull();
    // The top bar is there, with the way to the areas the person has.
    expect(screen.getByRole('button', { name: /Disconnect/ })).toBeVisible();
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(commandCenterCalls()).toEqual([]);
  });

  it.each([
    ['a supervisor', ['public'], ['supervisor']],
    ['a nurse', ['public'], ['nurse']],
    ['a doctor', ['public'], ['doctor']],
    ['an admin', ['admin'], []],
    ['an application admin', ['public'], ['application_admin']],
  ])('shows %s the view', async (_who, roles, localRoles) => {
    signIn(makeUser({ roles, localRoles }));
    network.on('GET', '/api/users/me', () => json(makeUser({ roles, localRoles })));
    renderApp('/command-center');
    expect(await screen.findByRole('heading', { level: 1, name: 'Command center' })).toBeVisible();
    expect(screen.queryByText(NOT_ALLOWED)).toBeNull();
    expect(network.callsTo('GET', '/api/command-centers/users')).toHaveLength(1);
  });

  it('says it in Thai', async () => {
    await act(() => i18next.changeLanguage('th'));
    signIn(makeUser({ roles: ['public'], localRoles: ['patient'] }));
    network.on('GET', '/api/users/me', () => json(makeUser({ roles: ['public'], localRoles: ['patient'] })));
    renderApp('/command-center');
    expect(
      await screen.findByText(
        'คุณไม่มีสิทธิ์เปิดศูนย์สั่งการ ส่วนนี้สำหรับผู้ดูแลระบบและทีมดูแลของศูนย์สั่งการ (หัวหน้างาน พยาบาล และแพทย์)',
      ),
    ).toBeVisible();
  });

  it("opens for a role granted since sign-in: the roles are the server's as they are now", async () => {
    signIn(makeUser({ roles: ['public'], localRoles: [] }));
    network.on('GET', '/api/users/me', () =>
      json(makeUser({ roles: ['public'], localRoles: ['supervisor'] })),
    );
    renderApp('/command-center');
    expect(await screen.findByRole('heading', { level: 1, name: 'Command center' })).toBeVisible();
    expect(screen.queryByText(NOT_ALLOWED)).toBeNull();
  });

  it('closes for a role taken away since sign-in, asking nothing of the view', async () => {
    signIn(makeUser({ roles: ['public'], localRoles: ['supervisor'] }));
    network.on('GET', '/api/users/me', () => json(makeUser({ roles: ['public'], localRoles: ['patient'] })));
    renderApp('/command-center');
    expect(await screen.findByText(NOT_ALLOWED)).toBeVisible();
    expect(commandCenterCalls()).toEqual([]);
  });
});

describe("the care team's open alerts", () => {
  const nurse = makeUser({
    id: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8f01',
    roles: ['public'],
    localRoles: ['nurse'],
  });
  const patientId = '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8f02';
  const alertId = '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8f03';
  const open = fakeAlert({
    id: alertId,
    data: { kind: 'manual', message: 'Fall in the kitchen' },
    userId: patientId,
    user: { id: patientId, firstName: 'Malee', lastName: 'Srisawat' },
  });

  it("a nurse acknowledges one, then closes it with a note, through the command center; the name leads to the person's page", async () => {
    let current = [open];
    network
      .on('GET', '/api/users/me', () => json(nurse))
      .on('GET', '/api/command-centers/alerts', () => json(fakeList(alertSchema, current)))
      .on('POST', `/api/command-centers/alerts/${alertId}/acknowledge`, () => {
        const acknowledged = {
          ...open,
          acknowledgedAt: '2026-11-20T08:05:00.000Z',
          acknowledgedByUserId: nurse.id,
        };
        current = [acknowledged];
        return json(acknowledged);
      })
      .on('POST', `/api/command-centers/alerts/${alertId}/close`, () => {
        current = [];
        return json({ ...open, isActive: false, closedByUserId: nurse.id, closingData: { note: 'x' } });
      });
    signIn(nurse);
    renderApp('/command-center');
    const alerts = await screen.findByRole('region', { name: 'Open alerts' });
    const entry = await within(alerts).findByRole('listitem', { name: 'Fall in the kitchen' });
    // The admin's pages are not the care team's: the name leads to the person's page in the command center
    // (decision 104), and nothing leads to the admin area.
    expect(within(entry).getByRole('link', { name: 'Malee Srisawat' })).toHaveAttribute(
      'href',
      `/command-center/${patientId}`,
    );
    expect(within(entry).getAllByRole('link')).toHaveLength(1);

    await userEvent.click(within(entry).getByRole('button', { name: 'Acknowledge' }));
    expect(await within(alerts).findByText(/^Acknowledged by you on /)).toBeVisible();
    expect(network.callsTo('POST', `/api/command-centers/alerts/${alertId}/acknowledge`)).toHaveLength(1);
    expect(network.calls.some((call) => call.url.pathname.startsWith('/api/alerts/'))).toBe(false);

    await userEvent.click(within(alerts).getByRole('button', { name: 'Close…' }));
    const note = within(alerts).getByRole('textbox', { name: 'What was done' });
    // The note is where the nurse is looking: it has the focus.
    expect(note).toHaveFocus();
    await userEvent.type(note, 'Visited; she is fine.');
    await userEvent.click(within(alerts).getByRole('button', { name: 'Close alert' }));
    expect(await within(alerts).findByText('No open alerts.')).toBeVisible();
    const closing = network.callsTo('POST', `/api/command-centers/alerts/${alertId}/close`);
    expect(closing).toHaveLength(1);
    expect(JSON.parse(closing[0]!.body!)).toEqual({ closingData: { note: 'Visited; she is fine.' } });
  });
});
