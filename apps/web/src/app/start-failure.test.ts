import { describe, expect, it, vi } from 'vitest';
import { showStartFailure } from './start-failure.ts';

function events() {
  const target = new EventTarget();
  return { target, events: { addEventListener: target.addEventListener.bind(target) } };
}

describe('a console that cannot start', () => {
  it('says in Thai that a first visit needs the network, and starts by itself when it is back', () => {
    const container = document.createElement('div');
    const retry = vi.fn();
    const { target, events: window } = events();
    showStartFailure(container, new TypeError('Failed to fetch'), {
      language: 'th',
      online: false,
      retry,
      events: window,
    });
    expect(container.querySelector('[role=alert]')?.textContent).toContain(
      'การเปิด Careplane ครั้งแรกบนอุปกรณ์นี้ต้องใช้อินเทอร์เน็ต',
    );
    expect(container.textContent).not.toContain('Failed to fetch');
    expect(retry).not.toHaveBeenCalled();
    target.dispatchEvent(new Event('online'));
    expect(retry).toHaveBeenCalledTimes(1);
    target.dispatchEvent(new Event('online'));
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('names any other cause and offers to try again, without waiting for a network it has', () => {
    const container = document.createElement('div');
    container.textContent = 'Loading…';
    const retry = vi.fn();
    const { target, events: window } = events();
    showStartFailure(container, new Error('The runtime configuration answered 503'), {
      language: 'en',
      online: true,
      retry,
      events: window,
    });
    expect(container.textContent).toContain(
      'Careplane could not start: The runtime configuration answered 503. Reload the page to try again.',
    );
    expect(container.textContent).not.toContain('Loading');
    target.dispatchEvent(new Event('online'));
    expect(retry).not.toHaveBeenCalled();
    container.querySelector('button')!.click();
    expect(retry).toHaveBeenCalledTimes(1);
    expect(container.querySelector('button')!.textContent).toBe('Try again');
  });
});
