// Page numbers under a list that is not a data table: drawn only for more than one page, named in the console's
// language, and moved back to the last page when the list shrinks below the page that is open.
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider.tsx';
import { createQueryClient } from '@/lib/query-client.ts';
import { onScreen } from '@/test/screen.ts';
import { PageControls } from './page-controls.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const draw = (total: number | null, page: number, onChange = vi.fn()) => {
  const view = render(
    <AppProvider queryClient={createQueryClient()} env="test">
      <PageControls total={total} pageSize={10} page={page} onChange={onChange} />
    </AppProvider>,
  );
  return { onChange, view };
};

describe('PageControls', () => {
  it('draws nothing for one page or an unknown total', () => {
    draw(10, 1);
    draw(null, 1);
    expect(screen.queryByRole('button', { name: 'Page 1' })).toBeNull();
  });

  it('turns pages by number and by the next-page control', async () => {
    const { onChange } = draw(25, 1);
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(onChange).toHaveBeenLastCalledWith(3);
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onChange).toHaveBeenLastCalledWith(2);
  });

  it('has buttons a finger can hit on a phone, and smaller ones wider', () => {
    for (const [phone, size] of [
      [true, 'lg'],
      [false, 'sm'],
    ] as const) {
      onScreen(phone);
      draw(25, 1);
      const pager = screen
        .getByRole('button', { name: 'Next page' })
        .closest<HTMLElement>('.mantine-Pagination-root');
      expect(pager?.style.getPropertyValue('--pagination-control-size')).toBe(
        `var(--pagination-control-size-${size})`,
      );
      cleanup();
      vi.restoreAllMocks();
    }
  });

  it('moves back to the last page when the list shrank below the open one', () => {
    const { onChange } = draw(15, 3);
    expect(onChange).toHaveBeenCalledWith(2);
  });

  it('names its controls in Thai', async () => {
    await act(() => i18next.changeLanguage('th'));
    draw(25, 1);
    expect(screen.getByRole('button', { name: 'หน้า 2' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'หน้าถัดไป' })).toBeVisible();
  });
});
