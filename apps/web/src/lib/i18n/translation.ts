// The types every catalog is written in. A namespace's English catalog is the source of its shape; its Thai
// catalog is typed as Translation of it, so a key missing (or extra) in Thai fails `tsc`.

/** The same keys as a catalog, every leaf a string. */
export type Translation<T> = { readonly [K in keyof T]: T[K] extends string ? string : Translation<T[K]> };

/** A catalog module: its texts are the default export (apps/web/src/**\/i18n/{en,th}.ts). */
export interface CatalogModule {
  default: Record<string, unknown>;
}

/**
 * A text a description holds before it is shown: a plain string, or a function that reads the catalog when the
 * text is rendered, so a resource description written once at import time follows the language it is read in.
 */
export type UiText = string | (() => string);

/** The text to show now. */
export const uiText = (text: UiText): string => (typeof text === 'function' ? text() : text);

/**
 * A title as it reads inside a sentence ("Back to service providers"): each word in lower case, except one
 * written with capitals inside it ("IOT", "IoT"). Scripts without case are left as they are.
 */
export const inSentence = (title: string): string =>
  title.replace(/\p{L}+/gu, (word) => (/\p{Lu}/u.test(word.slice(1)) ? word : word.toLowerCase()));
