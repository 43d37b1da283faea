// What the page says when the console cannot start (decision 076), before any catalog or component is there: in
// the language the person would have been spoken to, plain DOM. Without a network (a phone's first visit, before
// anything was kept on it) it says so and starts by itself when the network is back; any other failure names
// its cause and offers to try again.
import type { Language } from '@careplane/shared/i18n/language-tags';

export const startFailureTexts = {
  en: {
    offline: 'Careplane needs the network to open on this device for the first time.',
    offlineHint: 'It opens by itself as soon as the network is back.',
    failed: (message: string) => `Careplane could not start: ${message}. Reload the page to try again.`,
    retry: 'Try again',
  },
  th: {
    offline: 'การเปิด Careplane ครั้งแรกบนอุปกรณ์นี้ต้องใช้อินเทอร์เน็ต',
    offlineHint: 'ระบบจะเปิดเองทันทีที่กลับมาออนไลน์',
    failed: (message: string) => `Careplane เริ่มทำงานไม่ได้: ${message} โหลดหน้านี้ใหม่เพื่อลองอีกครั้ง`,
    retry: 'ลองอีกครั้ง',
  },
} satisfies Record<Language, unknown>;

/** A fetch that found no network rejects with a TypeError (the server's own errors are answers). */
export const isNetworkFailure = (error: unknown, online: boolean) => !online || error instanceof TypeError;

export interface StartFailureOptions {
  language: Language;
  online: boolean;
  /** Starts again: a reload of the page. */
  retry: () => void;
  /** Where the browser says it is back online (window). */
  events: Pick<Window, 'addEventListener'>;
}

/** Replaces the container's content with the failure, and starts again when it can. */
export function showStartFailure(container: HTMLElement, error: unknown, options: StartFailureOptions) {
  const texts = startFailureTexts[options.language];
  const offline = isNetworkFailure(error, options.online);
  const message = error instanceof Error ? error.message : String(error);
  const document = container.ownerDocument;
  const box = document.createElement('div');
  box.setAttribute('role', 'alert');
  box.style.cssText =
    'max-width:32rem;margin:15vh auto;padding:0 1.25rem;color:#212529;' +
    // The console's own stack (theme.ts): Sarabun where the device has no Thai font.
    'font:1rem/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans Thai",Sarabun,Arial,sans-serif';
  const title = document.createElement('p');
  title.style.fontWeight = '600';
  title.textContent = offline ? texts.offline : texts.failed(message);
  box.append(title);
  if (offline) {
    const hint = document.createElement('p');
    hint.textContent = texts.offlineHint;
    box.append(hint);
    options.events.addEventListener('online', options.retry, { once: true });
  }
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = texts.retry;
  button.style.cssText =
    'min-height:44px;padding:0 1.25rem;border:0;border-radius:4px;background:#0c8599;color:#fff;font:inherit';
  button.addEventListener('click', options.retry);
  box.append(button);
  container.replaceChildren(box);
}
