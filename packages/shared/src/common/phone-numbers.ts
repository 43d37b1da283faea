// Phone numbers as people write them: what may be kept, and the `tel:` address that dials one. Without zod, so
// a page that only dials a number does not load the contracts.

/** How a phone number may be written, in the words of the refusal. */
export const PHONE_NUMBER_MESSAGE =
  'Must be a phone number: digits, grouped by spaces, dashes, dots or brackets if you like, with a + in front and an extension (ext. 12) if needed';
/** An extension after the number: "ext. 12", "x12", "ต่อ 12"; its digits are the one captured group. */
const EXTENSION = String.raw`\s*(?:ext\.?|x|ต่อ)\s*([0-9]{1,6})`;
const phonePattern = new RegExp(String.raw`^\+?\(?[0-9][0-9 ()./-]*(?:${EXTENSION})?$`, 'iu');
const extensionPattern = new RegExp(`${EXTENSION}$`, 'iu');
/** At least three digits: the shortest numbers a care team dials are three- and four-digit hotlines (1669). */
const MIN_PHONE_DIGITS = 3;

/**
 * The `tel:` address that dials a number as written (RFC 3966): its digits with the + in front, and an
 * extension as `;ext=` rather than digits run onto the number ("02-123-4567 ต่อ 12" → `tel:021234567;ext=12`).
 */
export const telUri = (written: string): string => {
  const extension = extensionPattern.exec(written.trim());
  const number = (extension ? written.trim().slice(0, extension.index) : written).replace(/[^+\d]/g, '');
  return `tel:${number}${extension ? `;ext=${extension[1]}` : ''}`;
};

export const isPhoneNumber = (value: string): boolean => {
  const written = value.trim();
  return phonePattern.test(written) && (written.match(/[0-9]/g)?.length ?? 0) >= MIN_PHONE_DIGITS;
};
