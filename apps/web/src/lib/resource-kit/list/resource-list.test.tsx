// The kit's list in Thai: its own texts (actions, filters, the count line, the empty list) come from the kit
// catalog, the resource's (title, columns, enumeration values) from the area's, with no English left between.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userSchema } from '@careplane/shared/users/users.contract';
import { emptyHistory, fakeList, fakeUser } from '@/test/admin-fakes.ts';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';
import { fakeNetwork, json } from '@/test/network.ts';
import { onScreen } from '@/test/screen.ts';

const ann = fakeUser({
  firstName: 'Ann',
  lastName: 'Lee',
  username: 'ann@careplane.test',
  localRoles: ['nurse', 'application_admin'],
  createdAt: '2026-01-05T08:00:00.000Z',
});

function serve(items: readonly ReturnType<typeof fakeUser>[], total: number) {
  fakeNetwork()
    .on('GET', '/api/users/me', () => json(makeUser({ roles: ['admin'] })))
    .on('GET', '/api/users/logs', () => json(emptyHistory))
    .on('GET', '/api/users', () => json(fakeList(userSchema, [...items], total)))
    .install();
}

beforeEach(() => {
  resetSession();
  signIn(makeUser({ roles: ['admin'] }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a resource list in Thai', () => {
  it('says its actions, filters, count line and pages in Thai', async () => {
    serve([ann], 45);
    await act(() => i18next.changeLanguage('th'));
    renderApp('/admin/users', { env: 'test' });
    expect(await screen.findByRole('link', { name: 'Ann Lee' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'ส่งออก CSV' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'เพิ่มผู้ใช้' })).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'ค้นหา' })).toBeVisible();
    // The count line, once the total has come: one row shown of 45.
    expect(await screen.findByText('1–1 จาก 45')).toBeVisible();
    expect(screen.getByText('แถวต่อหน้า')).toBeVisible();
    expect(screen.getByRole('button', { name: 'หน้า 3' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'หน้าถัดไป' })).toBeVisible();
    // A yes/no cell (blocked), roles and a date (Buddhist era) in Thai, and a column header from the area's
    // catalog.
    expect(screen.getByRole('cell', { name: 'ไม่ใช่' })).toBeVisible();
    expect(screen.getByRole('cell', { name: 'พยาบาล, ผู้ดูแลแอปพลิเคชัน' })).toBeVisible();
    expect(screen.getByRole('cell', { name: '05.01.2569' })).toBeVisible();
    expect(screen.getByRole('columnheader', { name: /ถูกระงับ/ })).toBeVisible();

    // The filter panel: the kit's words, and the area's names for roles.
    await userEvent.click(screen.getByRole('button', { name: 'ตัวกรอง' }));
    const panel = screen.getByRole('group', { name: 'ตัวกรอง' });
    expect(within(panel).getByRole('button', { name: 'ล้างตัวกรอง' })).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('combobox', { name: 'บทบาทในหน่วยงาน' }));
    expect(await screen.findByRole('option', { name: 'พยาบาล' })).toBeVisible();
  });

  it('names the sort icons to a screen reader in Thai, and names them again when the sort changes', async () => {
    serve([ann], 1);
    await act(() => i18next.changeLanguage('th'));
    renderApp('/admin/users', { env: 'test' });
    expect(await screen.findByRole('link', { name: 'Ann Lee' })).toBeVisible();
    const table = screen.getByRole('table', { name: 'ผู้ใช้งาน' });
    expect(within(table).getAllByRole('img', { name: 'ยังไม่ได้เรียงลำดับ' }).length).toBeGreaterThan(0);
    expect(within(table).queryByRole('img', { name: /sorted/i })).toBeNull();

    await userEvent.click(within(table).getByRole('button', { name: /^อีเมล/ }));
    expect(await within(table).findByRole('img', { name: 'เรียงจากน้อยไปมาก' })).toBeInTheDocument();
    expect(within(table).queryByRole('img', { name: /sorted/i })).toBeNull();
  });

  it('says in Thai that there is nothing yet, with the list’s own name in the sentence', async () => {
    serve([], 0);
    await act(() => i18next.changeLanguage('th'));
    renderApp('/admin/users', { env: 'test' });
    expect(await screen.findByText('ยังไม่มีผู้ใช้งาน')).toBeVisible();
  });
});

describe('a page past the last', () => {
  it('shows the last page that has rows, with its pager, in place of the link', async () => {
    // 41 users: two full pages of 20 and one more on the third.
    fakeNetwork()
      .on('GET', '/api/users/me', () => json(makeUser({ roles: ['admin'] })))
      .on('GET', '/api/users/logs', () => json(emptyHistory))
      .on('GET', '/api/users', ({ url }) => {
        const offset = Number(url.searchParams.get('offset') ?? 0);
        const answer = fakeList(userSchema, offset >= 41 ? [] : [ann], 41);
        return json({ ...answer, offset });
      })
      .install();
    const { router } = renderApp('/admin/users?page=999', { env: 'test' });
    await waitFor(() => expect(router.state.location.search).toBe('?page=3'));
    expect(await screen.findByRole('link', { name: 'Ann Lee' })).toBeVisible();
    expect(screen.getByText('41–41 of 41')).toBeVisible();
    // In place of the link: going back leaves the list.
    expect(router.state.historyAction).toBe('REPLACE');
  });
});

describe('the pager', () => {
  it('has buttons a finger can hit on a phone, and smaller ones wider', async () => {
    for (const [phone, size] of [
      [true, 'lg'],
      [false, 'sm'],
    ] as const) {
      onScreen(phone);
      serve([ann], 45);
      renderApp('/admin/users', { env: 'test' });
      const next = await screen.findByRole('button', { name: 'Next page' });
      const pager = next.closest<HTMLElement>('.mantine-Pagination-root');
      expect(pager?.style.getPropertyValue('--pagination-control-size'), phone ? 'a phone' : 'wider').toBe(
        `var(--pagination-control-size-${size})`,
      );
      cleanup();
      vi.restoreAllMocks();
    }
  });
});

describe('a name in its own script', () => {
  it('shows under the Latin one, which the search by name also matches, and not where there is none', async () => {
    const malee = fakeUser({
      id: '0190f6a2-6d3b-7c8e-9f00-0000000000a7',
      firstName: 'Malee',
      lastName: 'Kaewmanee',
      username: 'malee@careplane.test',
      additionalInfo: { localizedFirstName: 'มาลี', localizedLastName: 'แก้วมณี' },
    });
    serve([malee, ann], 2);
    renderApp('/admin/users', { env: 'test' });
    const row = (await screen.findByRole('link', { name: 'Malee Kaewmanee' })).closest('tr')!;
    expect(within(row).getByText('มาลี แก้วมณี')).toBeVisible();
    const annRow = screen.getByRole('link', { name: 'Ann Lee' }).closest('tr')!;
    expect(within(annRow).getAllByRole('cell')[0]).toHaveTextContent(/^Ann Lee$/);
  });
});

describe('a list that could not be read', () => {
  it('says so with the reason and Try again, and never that there is nothing yet', async () => {
    fakeNetwork()
      .on('GET', '/api/users/me', () => json(makeUser({ roles: ['admin'] })))
      .on('GET', '/api/users/logs', () => json(emptyHistory))
      .on('GET', '/api/users', () =>
        json({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' }, 500),
      )
      .install();
    renderApp('/admin/users', { env: 'test' });
    const failure = await screen.findByRole('alert', {}, { timeout: 5_000 });
    expect(failure).toHaveTextContent('Could not load the users.');
    expect(failure).toHaveTextContent('Internal server error');
    expect(within(failure).getByRole('button', { name: 'Try again' })).toBeVisible();
    expect(screen.queryByText('No users yet.')).toBeNull();
  });
});
