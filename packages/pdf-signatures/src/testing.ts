// `@careplane/pdf-signatures/testing`: what the tests of code built on this package need to make signed files
// and judge them. For tests only (lint keeps it out of anything else).
export { ANN, pdfsig, signPdf, testAuthority, testSigner, type TestSigner } from './test-helpers.js';
export { addEmptySignatureField, replacePageContent } from './pdf-changes.test-helpers.js';
