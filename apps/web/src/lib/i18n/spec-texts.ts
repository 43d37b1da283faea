// Texts the product specification quotes word for word (spec §2, §5, §8, §9). Issue 19 keeps them in English
// in both languages, so they are not in any catalog: they are written here once, by what they are, and the
// catalog test (app/i18n/catalogs.test.ts) knows them so it does not report them as untranslated.
export const specTexts = {
  notFound: 'This page could not be found',
  backToHome: 'Back to the home page',
  confirmPromotion: 'Confirm promotion',
  noPurposeProvided: 'No purpose provided.',
  canvasBlocked: 'Canvas data extraction is blocked. Please enable it and try again.',
  loginTimedOut: 'Authentication request timed out.',
  couldNotGetUserProfile: 'Could not get user profile.',
  couldNotGenerateQr: 'Could not generate QR code. Please reload and try again.',
  couldNotDownloadPrescription: 'Could not download prescription.',
  couldNotGetPrescriptionDocument: 'Could not get prescription document.',
  sessionExpiredLoggedOut: 'Your session has expired. You have been logged out.',
  sessionExpiredTitle: 'Your session has expired',
  sessionExpiredText: 'You will be redirected to front page. Login again to continue.',
  understood: 'Understood',
} as const;

export type SpecText = (typeof specTexts)[keyof typeof specTexts];
