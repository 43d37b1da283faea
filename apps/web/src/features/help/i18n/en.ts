// The texts of the landing page's Support and Privacy dialogs (namespace `help`; the dialogs are
// features/landing/components/{support,privacy}-modal.tsx). A namespace apart from `landing`: the dialogs load
// on demand, and so do their words, which keeps the privacy policy off the first page's weight (decision 029).
import type { Translation } from '@/lib/i18n/translation.ts';

const help = {
  support: {
    title: 'Support',
    intro:
      'Questions about Careplane, the mobile app or signing in? Send us a message or an email and we will get back to you.',
    email: 'Email: ',
    warning: "Never send your phone's keys or anyone's health details by email.",
  },
  privacy: {
    title: 'Privacy policy',
    intro:
      'This policy explains what Careplane collects when you use this website and its apps, and how that information is handled.',
    routine: {
      title: 'Information we collect routinely',
      lead: 'Like most websites, our servers routinely record, for every visit:',
      ip: 'your IP address;',
      browser: 'details of your browser (its type and version) and operating system;',
      timestamps: 'timestamps of your requests;',
      referrer: 'the referring page that linked you here.',
      use: 'We use this information to run and secure the service and to understand how it is used. It is not sold or shared for advertising.',
    },
    cookies: {
      title: 'Cookies',
      text: "The website keeps what it needs to keep you signed in in your browser's storage. It sets no advertising or tracking cookies. You can clear this storage at any time; you will then have to sign in again.",
    },
    links: {
      title: 'Links to third-party sites',
      text: 'This website links to other sites, such as the app stores. We are not responsible for their content or their privacy practices; read their policies when you visit them.',
    },
    security: {
      title: 'Security',
      text: 'We protect the information we hold with reasonable technical and organisational measures. Signing in uses a key held on your phone, never a password; keep your phone safe and do not let anyone else use it to sign in. No method of transmission or storage is completely secure, and we cannot guarantee absolute security.',
    },
    changes: {
      title: 'Changes to this policy',
      text: 'We may update this policy from time to time; the new version is published on this page. This policy is effective as of {{date}}.',
    },
    contact: {
      title: 'Contact',
      text: 'Questions about this policy or about your information: <anchor>{{email}}</anchor>.',
    },
  },
} as const;

export default help;

declare module 'i18next' {
  interface ResourceNamespaceMap {
    help: Translation<typeof help>;
  }
}
