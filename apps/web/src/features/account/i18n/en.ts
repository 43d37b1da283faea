// The account page's texts (namespace `account`): the profile's fields, the last sign-in, the areas the user
// works in. "Could not get user profile." is the spec's and stays English (lib/i18n/spec-texts.ts).
import type { Translation } from '@/lib/i18n/translation.ts';

const account = {
  fields: {
    firstName: 'First name',
    lastName: 'Last name',
    username: 'Username',
    email: 'Email',
    phone: 'Phone',
    identityAssuranceLevel: 'Identity assurance level',
    roles: 'Roles',
    previousSignIn: 'Previous sign-in',
  },
  assurance: {
    low: 'low',
    substantial: 'substantial',
    high: 'high',
  },
  notAvailable: 'Not available',
  noSignIn: 'None before this one',
  loading: 'Loading the profile',
  tryAgain: 'Try again',
  whereYouWork: 'Where you work',
} as const;

export default account;

declare module 'i18next' {
  interface ResourceNamespaceMap {
    account: Translation<typeof account>;
  }
}
