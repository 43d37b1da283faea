// What a sign-in or an authorization may show on the person's phone beside the console, to tie the two together.

/**
 * Binding messages: short, printable, shown on the console and the authenticator. A letter may carry up to two
 * combining marks (Thai writes its vowels and tone marks so: "ยืนยัน"), never more, so a message cannot pile
 * marks over the phone's screen.
 */
export const BINDING_MESSAGE = /^(?:\p{L}\p{M}{0,2}|[\p{N} .,:!?#+/_-]){1,40}$/u;
