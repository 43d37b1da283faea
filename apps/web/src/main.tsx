// The console's entry: global styles, the runtime configuration (read once) and the texts of the language the
// console speaks (decision 047), then the app into #root.
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/nprogress/styles.css';
import '@/app/thai-font.css';
import '@/app/touch-targets.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app.tsx';
import { showStartFailure } from '@/app/start-failure.ts';
import { initI18n } from '@/app/i18n/i18n.ts';
import { loadRuntimeConfig } from '@/lib/config.ts';
import { reportError } from '@/lib/error-reporting.ts';
import { followSessionLanguage, languageFor } from '@/lib/i18n/language.ts';
import { registerServiceWorker } from '@/lib/offline/service-worker.ts';
import { sessionStore } from '@/lib/session.ts';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
const root = createRoot(container);

// Another tab signing in or out changes this tab's session too, from the first moment: this tab stores its
// session when it has started, and must not write an older one over what another tab stored meanwhile.
window.addEventListener('storage', (event) => {
  if (event.key === null || event.key === 'careplane.session') sessionStore.reload();
});

try {
  const [config] = await Promise.all([
    loadRuntimeConfig(),
    initI18n(languageFor(sessionStore.getState().user)),
  ]);
  // A sign-in, or a language chosen on another device, switches the console to the account's language.
  followSessionLanguage();
  // Spec §3: the server address comes from the runtime configuration and is stored on start.
  sessionStore.set({ appServerUrl: config.appServerUrl });
  window.addEventListener('unhandledrejection', (event) => reportError(event.reason, { step: 'unhandled' }));
  // Installable, and open offline with the last data (decision 046).
  registerServiceWorker(sessionStore);
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
} catch (error) {
  showStartFailure(container, error, {
    language: languageFor(sessionStore.getState().user),
    online: navigator.onLine,
    retry: () => window.location.reload(),
    events: window,
  });
}
