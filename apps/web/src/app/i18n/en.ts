// The shell's texts (namespace `common`): layouts, top bar, error pages, the language switch, and words and
// enumeration labels every area shares. Thai in th.ts, with the same keys.
import type { Translation } from '@/lib/i18n/translation.ts';

const common = {
  language: {
    label: 'Language',
    saved: 'The console speaks English from now on.',
    notSaved: 'Could not save your language on your account: it applies on this device only.',
  },
  skipToContent: 'Skip to content',
  home: '{{name}} home',
  topBar: {
    server: 'Server',
    areas: 'Areas',
    yourAccount: 'Your account',
    disconnect: 'Disconnect',
    disconnectIn: 'Disconnect ({{seconds}} s)',
  },
  error: {
    somethingWrong: 'Something went wrong.',
  },
  enums: {
    prescriptionStatus: {
      new: 'New',
      issued: 'Issued',
      waiting: 'Waiting',
      ready: 'Ready',
      picked_up: 'Picked up',
      delivered: 'Delivered',
      on_hold: 'On hold',
      returned: 'Returned',
    },
  },
} as const;

export default common;

declare module 'i18next' {
  interface ResourceNamespaceMap {
    common: Translation<typeof common>;
  }
}
