import { describe, expect, it, vi } from 'vitest';
import { onFirstControl } from './service-worker.ts';

function container(controller: object | null) {
  const target = new EventTarget();
  return Object.assign(target, { controller }) as unknown as ServiceWorkerContainer;
}

describe('the reads of a first visit', () => {
  it('are asked again once, when the service worker first takes control of the page', () => {
    const sw = container(null);
    const again = vi.fn();
    onFirstControl(again, sw);
    sw.dispatchEvent(new Event('controllerchange'));
    sw.dispatchEvent(new Event('controllerchange'));
    expect(again).toHaveBeenCalledTimes(1);
  });

  it('are not asked again where a worker already controls the page, or after the page left', () => {
    const controlled = container({});
    const again = vi.fn();
    onFirstControl(again, controlled);
    controlled.dispatchEvent(new Event('controllerchange'));
    const first = container(null);
    onFirstControl(again, first)();
    first.dispatchEvent(new Event('controllerchange'));
    expect(again).not.toHaveBeenCalled();
    expect(onFirstControl(again, undefined)).toBeTypeOf('function');
  });
});
