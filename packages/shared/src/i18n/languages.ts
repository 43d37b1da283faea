// The languages Careplane speaks: English and Thai. A user's choice is stored on their account (null: follow
// the browser); a request without one is answered in the language its Accept-Language prefers.
import { z } from 'zod';
import { languages } from './language-tags.ts';

export * from './language-tags.ts';

export const languageSchema = z.enum(languages, { message: 'Must be en or th' });
