// The authenticator's entry: styles and the Thai font, the link it was opened with, the offline shell's
// service worker.
import '@mantine/core/styles.css';
import './styles.css';
import './thai-font.css';
import { MantineProvider, createTheme } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { APP_BASE, readLaunch } from './lib/launch.ts';

const theme = createTheme({
  primaryColor: 'cyan',
  primaryShade: 8,
  defaultRadius: 'md',
  // Sarabun (thai-font.css, Thai letters only) where the phone has no Thai font of its own.
  fontFamily:
    '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Noto Sans Thai", Sarabun, Helvetica, Arial, sans-serif',
});

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const launch = readLaunch();
createRoot(container).render(
  <StrictMode>
    <MantineProvider theme={theme}>
      <App launch={launch} />
    </MantineProvider>
  </StrictMode>,
);

if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register(`${APP_BASE}sw.js`, { scope: APP_BASE }).catch(() => {
    // Without it the app still works online.
  });
}
