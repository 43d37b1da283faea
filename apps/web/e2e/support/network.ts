// The network going and coming back, for the page and for its service worker alike. Whether a context's
// setOffline reaches its service worker's own fetches has changed between browser versions (Playwright issue
// 2311); were it not to, a reload "offline" would be served from the server through the worker and prove
// nothing about what the phone kept. So the worker's requests are aborted here as a dropped network aborts
// them (PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS, set in playwright.config.ts, lets context.route see
// them), and prescriptions-offline.spec.ts checks that a read through the worker finds no network.
import type { BrowserContext, Route } from '@playwright/test';

const cutServiceWorker = (route: Route) =>
  route.request().serviceWorker() ? route.abort('internetdisconnected') : route.fallback();

export async function goOffline(context: BrowserContext) {
  await context.route('**', cutServiceWorker);
  await context.setOffline(true);
}

export async function goOnline(context: BrowserContext) {
  await context.unroute('**', cutServiceWorker);
  await context.setOffline(false);
}
