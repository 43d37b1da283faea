// What a person reads when a value is refused: a sentence that names the field ("Title is required.",
// "Quantity must be a whole number."), never the schema's own words ("Invalid input: expected string, received
// undefined"). Installed once as zod's error map for every contract, in the server and the console alike;
// a message a schema sets itself still wins. The sentences, in English and Thai, are i18n/validation-texts.ts;
// a refusal is parsed in English and answered in the reader's language (localizeIssue).
import { z } from 'zod';
import { describeIssue } from '../i18n/validation-texts.ts';

export { fieldName } from '../i18n/validation-texts.ts';

/** The English sentence for an issue no schema named itself; undefined leaves zod's own. */
export const validationMessage = (issue: z.core.$ZodRawIssue): string | undefined =>
  describeIssue(issue, 'en');

z.config({ customError: validationMessage });
