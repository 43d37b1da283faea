// The sign-in's texts (namespace `auth`): the QR code and user-ID sign-in of the landing and login pages.
import type { Translation } from '@/lib/i18n/translation.ts';

const auth = {
  panel: 'Sign in',
  tabs: { qr: 'QR code', identifier: 'User ID' },
  expiresIn: 'The request expires in {{seconds}} s.',
  compareCode: 'Check that your phone shows the same code:',
  failed: 'Sign-in failed',
  tryAgain: 'Try again',
  // Why a sign-in failed, where the words are the console's own (those the specification quotes stay as it
  // words them: lib/i18n/spec-texts.ts).
  failure: {
    denied: 'The sign-in was denied on the phone.',
    registrationFailed: 'Could not register the sign-in with the application server.',
    startFailed: 'Could not start the sign-in. Please try again.',
    offline: 'Signing in needs the network: connect, then try again.',
  },
  qr: {
    intro: 'Open the Careplane app on your phone and scan the code to sign in.',
    show: 'Show QR code',
    alt: 'QR code to scan with the Careplane app',
    approve: 'Approve the sign-in on your phone.',
  },
  identifier: {
    sentBefore: 'A sign-in request was sent to the phone of ',
    sentAfter: '. Approve it there.',
    cancel: 'Cancel',
    label: 'User ID',
    description: 'The identifier of your account, e.g. name@domain',
    submit: 'Sign in',
  },
  signedInAs: 'You are signed in as {{name}}.',
  aUser: 'a user',
  openConsole: 'Open the console',
  noPassword: 'No password: your phone approves every sign-in.',
} as const;

export default auth;

declare module 'i18next' {
  interface ResourceNamespaceMap {
    auth: Translation<typeof auth>;
  }
}
