// Every page behind the guard: the session timer runs here, with its expiry dialog, the account's language is
// read here (one chosen on another device applies without a visit to /account, decision 047), the actions kept
// offline are sent from here (decision 046), the reads of a first visit are asked again once the service worker
// can keep them (decision 076), the date pickers speak the console's language (dates-locale.tsx),
// and the confirm dialogs (modals.openConfirmModal) have their provider here. The route loads lazily, so the
// first page of a visitor who is not signed in carries none of it (decision 029).
import { ModalsProvider } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { useAccountLanguage } from '@/features/account/api/account-language.ts';
import { SessionWatcher } from '@/features/auth/components/session-watcher.tsx';
import { OutboxRunner } from '@/lib/offline/outbox-runner.tsx';
import { askReadsAgain, onFirstControl } from '@/lib/offline/service-worker.ts';
import { ConsoleDatesProvider } from '../dates-locale.tsx';

function AccountLanguage() {
  useAccountLanguage();
  return null;
}

function KeptReads() {
  const client = useQueryClient();
  useEffect(() => onFirstControl(() => void askReadsAgain(client)), [client]);
  return null;
}

export function Component() {
  return (
    <ModalsProvider>
      <ConsoleDatesProvider>
        <SessionWatcher />
        <AccountLanguage />
        <OutboxRunner />
        <KeptReads />
        <Outlet />
      </ConsoleDatesProvider>
    </ModalsProvider>
  );
}
