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
  menu: {
    label: 'Admin menu',
    open: 'Menu',
    close: 'Close Menu',
    users: 'Users',
    patients: 'Patients',
    devices: 'Devices',
    deviceJobs: 'Device Jobs',
    workstations: 'Workstations',
    iotDevices: 'IOT Devices',
    prescriptions: 'Prescriptions',
    serviceProviders: 'Service Providers',
    commandCenters: 'Command Centers',
    alerts: 'Alerts',
    settings: 'Settings',
    public: 'Public',
    home: 'Home',
    actions: 'Actions',
    disconnect: 'Disconnect',
  },
  userPages: {
    label: 'Your pages',
    documents: 'Documents',
    account: 'Account',
  },
  adminHome: {
    title: 'Admin home',
    loading: 'Loading…',
    users: {
      allLink: 'All users',
      summary: '{{total}} in all; {{added}} new in the last 12 months',
      chart: 'New users per month',
      series: 'New users',
    },
    devices: {
      allLink: 'All devices',
      // The current hour has only begun: the one before says how many usually report.
      summary: '{{total}} in all; {{latest}} reported so far this hour, {{previous}} in the hour before',
      chart: 'Devices reporting per hour',
      series: 'Devices reporting',
    },
    alerts: {
      title: 'Open alerts',
      titleCount: 'Open alerts ({{total}})',
      allLink: 'All alerts',
      loading: 'Loading the alerts',
      latest: 'The latest {{shown}} of {{total}} open alerts. ',
      seeAll: 'See all {{total}}',
      none: 'No open alerts.',
    },
    jobs: {
      title: 'Latest device jobs',
      allLink: 'All jobs',
      loading: 'Loading the jobs',
      none: 'No jobs yet.',
    },
  },
  notYetAvailable: {
    thisPage: 'This page',
    title: 'Not yet available',
    text: '{{title}} is not yet available in this version of the console.',
  },
  login: {
    title: 'Log in',
    intro: 'With the Careplane app: scan the QR code or use your user ID.',
  },
  footer: {
    version: '{{name}} {{version}}',
  },
  verify: {
    yourDocuments: 'Your documents',
    logIn: 'Log in',
    title: 'Verify a document',
    intro:
      'Check that a PDF signed with Careplane is authentic and has not been changed, and see who signed it, when, and what was changed after each signature. No sign-in needed.',
    checking: 'Checking the prescription',
    notFoundTitle: 'No signed prescription with this code',
    notFoundText:
      'The code does not name a prescription whose receipts were signed with Careplane. You can still check a PDF of it below.',
    receipts: "The prescription's receipts",
    receiptTitles: {
      issuer: 'The prescription, signed by its prescriber',
      pickup: 'The pickup receipt, signed by whoever picked it up',
    },
    compareBefore: 'Compare the paper with ',
    compareLink: 'the receipt as it was signed',
    compareAfter: ': the same names, items and dates.',
  },
} as const;

export default common;

declare module 'i18next' {
  interface ResourceNamespaceMap {
    common: Translation<typeof common>;
  }
}
