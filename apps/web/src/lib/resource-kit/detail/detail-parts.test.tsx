// A detail page's related records: links, or "None" in the console's language.
import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DetailField, JsonValue, RecordLinks } from './detail-parts.tsx';

const show = (records: { id: string; firstName?: string; lastName?: string }[], empty?: string) =>
  render(
    <MantineProvider>
      <MemoryRouter>
        <RecordLinks resource="users" records={records} empty={empty} />
      </MemoryRouter>
    </MantineProvider>,
  );

describe('RecordLinks', () => {
  it('says "None" in the console’s language when there is nothing to link', async () => {
    show([]);
    expect(screen.getByText('None')).toBeVisible();
    await act(() => i18next.changeLanguage('th'));
    expect(screen.getByText('ไม่มี')).toBeVisible();
    expect(screen.queryByText('None')).toBeNull();
  });

  it('keeps the page’s own wording for nothing, and links each record', () => {
    const { unmount } = show([], 'No employees');
    expect(screen.getByText('No employees')).toBeVisible();
    unmount();
    show([{ id: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8001', firstName: 'Somchai', lastName: 'Boonmee' }]);
    expect(screen.getByRole('link', { name: 'Somchai Boonmee' })).toHaveAttribute(
      'href',
      '/admin/users/0195f3a2-7c41-7d2e-9a10-4b5c6d7e8001',
    );
  });
});

describe('JsonValue', () => {
  it.each([null, undefined, {}])('reads %s as an empty field, not as a label over a blank', (value) => {
    const { unmount } = render(
      <MantineProvider>
        <DetailField label="Connection details">
          <JsonValue value={value} />
        </DetailField>
      </MantineProvider>,
    );
    expect(screen.getByText('—')).toBeVisible();
    unmount();
  });

  it('labels what a device sent in the console’s language, its keys as words where no word is known', async () => {
    await act(() => i18next.changeLanguage('en'));
    render(
      <MantineProvider>
        <JsonValue value={{ firmwareVersion: '1.2.3', pairedWith: null, batterySlot: 2 }} />
      </MantineProvider>,
    );
    expect(screen.getByText('Firmware version:')).toBeVisible();
    expect(screen.getByText('Paired with:')).toBeVisible();
    expect(screen.getByText('Battery slot:')).toBeVisible();
    await act(() => i18next.changeLanguage('th'));
    expect(screen.getByText('เวอร์ชันเฟิร์มแวร์:')).toBeVisible();
    expect(screen.getByText('จับคู่กับ:')).toBeVisible();
    expect(screen.getByText('Battery slot:')).toBeVisible();
    expect(screen.getByText('1.2.3')).toBeVisible();
    await act(() => i18next.changeLanguage('en'));
  });
});
