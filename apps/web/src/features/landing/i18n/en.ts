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
} as const;

export default landing;

declare module 'i18next' {
  interface ResourceNamespaceMap {
    landing: Translation<typeof landing>;
  }
}
