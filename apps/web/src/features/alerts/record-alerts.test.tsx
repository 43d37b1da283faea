// A user's page lists the user's alerts, open first, with severity; an open alert is acknowledged and closed
// (with a note as its closingData) from there.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alertSchema, type Alert } from '@careplane/shared/alerts/alerts.contract';
import { userSchema } from '@careplane/shared/users/users.contract';
import { fakeList, fakeUser, signedInAdmin } from '@/test/admin-fakes.ts';
import { renderApp } from '@/test/app.tsx';
import { json, type FakeNetwork } from '@/test/network.ts';
import { browserNetwork } from '@/test/online.ts';
import { actionOutbox } from '@/lib/offline/action-outbox.ts';

const ann = fakeUser({ id: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8f91', firstName: 'Ann', lastName: 'Lee' });
const base = {
  createdAt: '2026-11-20T08:00:00.000Z',
  updatedAt: '2026-11-20T08:00:00.000Z',
  closingData: null,
  iotDeviceId: null,
  userId: ann.id,
  closedByUserId: null,
  createdByUserId: null,
  acknowledgedAt: null,
  acknowledgedByUserId: null,
  closedAt: null,
};
const open = alertSchema.parse({
  ...base,
  id: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fa1',
  isActive: true,
  severity: 'critical',
  timestamp: 1_795_000_000_000,
  data: { reason: 'out_of_bounds', dataType: 'heart_rate' },
});
const closed = alertSchema.parse({
  ...base,
  id: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fa2',
  isActive: false,
  severity: 'info',
  timestamp: 1_794_000_000_000,
  data: { message: 'Call back' },
  closingData: { note: 'Called' },
  closedAt: '2026-11-20T09:00:00.000Z',
});
let current: Alert = open;
let network: FakeNetwork;

beforeEach(() => {
  current = open;
  network = signedInAdmin()
    .on('GET', '/api/users', () => json(fakeList(userSchema, [ann])))
    .on('GET', `/api/users/${ann.id}`, () => json(ann))
    .on('GET', '/api/alerts', () => json(fakeList(alertSchema, [current, closed])))
    .on('POST', `/api/alerts/${open.id}/acknowledge`, () => {
      current = { ...current, acknowledgedAt: '2026-11-20T10:00:00.000Z', acknowledgedByUserId: ann.id };
      return json(current);
    })
    .on('POST', `/api/alerts/${open.id}/close`, (call) => {
      const body = JSON.parse(call.body!) as { closingData: Record<string, unknown> };
      current = {
        ...current,
        isActive: false,
        closingData: body.closingData,
        closedAt: '2026-11-20T11:00:00.000Z',
      };
      return json(current);
    })
    .install();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/**
 * The user's page with Close… opened on the open alert, whose close the server refuses: a colleague's close
 * landed first (this phone was offline, say). Answers the alert's entry as the list shows it.
 */
async function closingWhenAColleagueClosedFirst() {
  network.on('POST', `/api/alerts/${open.id}/close`, () => {
    current = {
      ...current,
      isActive: false,
      closingData: { note: 'Ambulance sent' },
      closedAt: closed.closedAt,
    };
    return json({ statusCode: 409, error: 'Conflict', message: 'This alert is already closed' }, 409);
  });
  renderApp(`/admin/users/${ann.id}`, { env: 'test' });
  const item = () => within(screen.getByRole('list', { name: 'Alerts' })).getAllByRole('listitem')[0]!;
  await userEvent.click(
    within(await screen.findByRole('list', { name: 'Alerts' })).getAllByRole('button', {
      name: 'Close…',
    })[0]!,
  );
  return item;
}

describe("a user's alerts", () => {
  it('lists them with severity and state, acknowledges and closes an open one with a note', async () => {
    renderApp(`/admin/users/${ann.id}`, { env: 'test' });
    const list = await screen.findByRole('list', { name: 'Alerts' });
    const request = network.callsTo('GET', '/api/alerts')[0]!.url.searchParams;
    expect(request.getAll('filters')).toEqual([`user.id~${ann.id}`]);
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first!.textContent).toContain('critical');
    expect(first!.textContent).toContain('Heart rate out of bounds');
    expect(second!.textContent).toContain('Closing note: Called');
    expect(within(second!).queryByRole('button')).toBeNull();

    await userEvent.click(within(first!).getByRole('button', { name: 'Acknowledge' }));
    await waitFor(() =>
      expect(network.callsTo('POST', `/api/alerts/${open.id}/acknowledge`)).toHaveLength(1),
    );
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Alerts' })).getAllByRole('listitem')[0]!.textContent,
      ).toContain('Open, acknowledged'),
    );
    // Acknowledge is gone from the entry: the focus is on Close…, the next thing to do, not lost to the page.
    await waitFor(() =>
      expect(
        within(within(screen.getByRole('list', { name: 'Alerts' })).getAllByRole('listitem')[0]!).getByRole(
          'button',
          { name: 'Close…' },
        ),
      ).toHaveFocus(),
    );

    const item = () => within(screen.getByRole('list', { name: 'Alerts' })).getAllByRole('listitem')[0]!;
    await userEvent.click(within(item()).getByRole('button', { name: 'Close…' }));
    const closeButton = within(item()).getByRole('button', { name: 'Close alert' });
    expect((closeButton as HTMLButtonElement).disabled).toBe(true);
    // The note is asked for, and the field says why Close alert waits for it.
    const note = within(item()).getByRole<HTMLTextAreaElement>('textbox', { name: 'What was done' });
    expect(note).toBeRequired();
    expect(note).toHaveAccessibleDescription('Needed to close the alert; the note stays with it.');
    // A pasted note longer than the API takes is kept whole and said too long; nothing is sent.
    await userEvent.click(note);
    await userEvent.paste('x'.repeat(2001));
    expect(note.value).toHaveLength(2001);
    expect(within(item()).getByText('At most 2000 characters: this note has 2001')).toBeTruthy();
    expect(within(item()).getByRole<HTMLButtonElement>('button', { name: 'Close alert' }).disabled).toBe(
      true,
    );
    await userEvent.clear(note);
    await userEvent.type(note, 'Visited, rate back to normal');
    expect(within(item()).queryByText(/At most 2000 characters/)).toBeNull();
    await userEvent.click(within(item()).getByRole('button', { name: 'Close alert' }));
    await waitFor(() => expect(network.callsTo('POST', `/api/alerts/${open.id}/close`)).toHaveLength(1));
    expect(JSON.parse(network.callsTo('POST', `/api/alerts/${open.id}/close`)[0]!.body!)).toEqual({
      closingData: { note: 'Visited, rate back to normal' },
    });
    await waitFor(() => expect(item().textContent).toContain('Closing note: Visited, rate back to normal'));
    // Said in words too (on the open alerts' lists the alert leaves the page).
    expect(await screen.findByText(/^Alert closed: Heart rate out of bounds/)).toBeVisible();
  });

  it('keeps the note in a notice when a colleague closed the alert first, as the list drops the alert', async () => {
    const item = await closingWhenAColleagueClosedFirst();
    await userEvent.type(
      within(item()).getByRole('textbox', { name: 'What was done' }),
      'Called the family: pressed by mistake',
    );
    await userEvent.click(within(item()).getByRole('button', { name: 'Close alert' }));
    expect(await screen.findByText('Your note was not saved')).toBeVisible();
    expect(
      screen.getByText(
        'This alert is already closed. Your note, to pass on: “Called the family: pressed by mistake”',
      ),
    ).toBeVisible();
    // The list shows the colleague's close; the notice stays until it is closed.
    await waitFor(() => expect(item().textContent).toContain('Closing note: Ambulance sent'));
    expect(screen.getByText('Your note was not saved')).toBeVisible();
  });

  it('keeps a close tapped offline on the device; when a colleague closed the alert first, the notice keeps the note', async () => {
    const setOnline = browserNetwork();
    const item = await closingWhenAColleagueClosedFirst();
    await userEvent.type(within(item()).getByRole('textbox', { name: 'What was done' }), 'Called the family');
    setOnline(false);
    await userEvent.click(within(item()).getByRole('button', { name: 'Close alert' }));
    // Kept: said in place of the actions, which are gone, so nobody closes it twice.
    expect(await within(item()).findByText('Close alert — queued, will send when online')).toBeVisible();
    // The focus stays with the alert: on the line that took the form's place.
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(item()).getByText('Close alert — queued, will send when online'),
      ),
    );
    expect(within(item()).queryByRole('button', { name: 'Close alert' })).toBeNull();
    expect(within(item()).queryByRole('button', { name: 'Acknowledge' })).toBeNull();
    expect(network.callsTo('POST', `/api/alerts/${open.id}/close`)).toHaveLength(0);

    setOnline(true);
    await waitFor(() => expect(network.callsTo('POST', `/api/alerts/${open.id}/close`)).toHaveLength(1));
    const [sent] = network.callsTo('POST', `/api/alerts/${open.id}/close`);
    expect(JSON.parse(sent!.body!)).toMatchObject({ closingData: { note: 'Called the family' } });
    expect(sent!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByText('Not applied')).toBeVisible();
    expect(
      screen.getByText(
        "Your 'Close alert' of Heart rate out of bounds was not applied: This alert is already closed. " +
          'Your note, to pass on: “Called the family”',
      ),
    ).toBeVisible();
    await waitFor(() => expect(item().textContent).toContain('Closing note: Ambulance sent'));
    expect(actionOutbox.entries()).toEqual([]);
  });
});
