// The landing page's texts (namespace `landing`): what Careplane is, the free-of-charge notes, how to log in.
import type { Translation } from '@/lib/i18n/translation.ts';

const landing = {
  support: 'Support',
  privacy: 'Privacy',
  title: 'Care at home, run from one place',
  intro:
    'Careplane is the operations console for care-at-home and telemedicine teams: patients, staff, devices, prescriptions, pharmacies and command centers.',
  free: 'The platform and its apps are free.',
  noPayment: 'We never ask for your payment details.',
  asIs: 'Everything is provided as is, without warranty of any kind.',
  logIn: 'Log in',
  howToLogIn:
    'Scan the QR code with the Careplane app, or enter your user ID and approve the request on your phone. There is no password and no separate registration.',
  openLoginPage: 'Open the login page',
  stores: {
    getItOn: 'GET IT ON',
    downloadOnThe: 'Download on the',
    notYet: 'Not available yet',
    notPublished: 'Store links are not published yet; ask support for the app.',
  },
  documents: {
    title: 'Documents',
    intro:
      'Store and share PDF documents and sign them from your phone. Anyone you share a document with can check that it is authentic, has not been changed, and was signed.',
    verify: 'Verify a document',
    gettingStarted: 'Getting started',
    download: 'Download the mobile app.',
    register: 'Register: the app ties your account to your digital identity, no form to fill in.',
    logIn: 'Log in here with the QR code or with your user ID.',
    howItWorks: 'How it works',
    how: 'Your phone holds the private key of your account. Signing in or signing a document is a request that your phone shows you and that you approve there; the key never leaves the phone. Keep your phone safe and never let anyone else use your key.',
    fees: 'Fees',
    feesText: 'None. The platform and its apps are free, and we will never ask for your payment details.',
  },
} as const;

export default landing;

declare module 'i18next' {
  interface ResourceNamespaceMap {
    landing: Translation<typeof landing>;
  }
}
