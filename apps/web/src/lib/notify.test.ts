// A phone shows the latest passing notice, not a stack of them; a refusal that stays until closed stays.
import { notifications, notificationsStore } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notify } from './notify.ts';

const onScreen = (phone: boolean) =>
  vi
    .spyOn(window, 'matchMedia')
    .mockImplementation(
      (query: string) => ({ matches: phone && query.includes('max-width'), media: query }) as MediaQueryList,
    );
const shown = () => {
  const { notifications: visible, queue } = notificationsStore.getState();
  return [...visible, ...queue].map((notice) => notice.message);
};

afterEach(() => {
  notifications.clean();
  vi.restoreAllMocks();
});

describe('notices', () => {
  it('on a phone, a new notice takes the place of the passing ones, and a refusal stays', () => {
    onScreen(true);
    notify({ color: 'red', autoClose: false, message: 'Not done: Pick up' });
    notify({ color: 'teal', message: 'Accepted' });
    notify({ color: 'teal', message: 'Marked ready' });
    notify({ color: 'teal', message: 'Put on hold' });
    expect(shown()).toEqual(['Not done: Pick up', 'Put on hold']);
  });

  it('on a wider screen, they stand side by side', () => {
    onScreen(false);
    notify({ color: 'teal', message: 'Accepted' });
    notify({ color: 'teal', message: 'Marked ready' });
    expect(shown()).toEqual(['Accepted', 'Marked ready']);
  });
});
