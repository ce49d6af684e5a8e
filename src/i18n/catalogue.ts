import type { en } from './en.js';

/**
 * The shape every language's catalogue must have: the English catalogue's keys, with strings as
 * strings and sentences as functions taking the same arguments. A catalogue declared with this type
 * fails to compile when it lacks a key or has one English does not.
 */
type Shape<T> = T extends string
  ? string
  : T extends (...args: infer A) => string
    ? (...args: A) => string
    : { readonly [K in keyof T]: Shape<T[K]> };

export type Catalogue = Shape<typeof en>;

/** The interface languages: Discord's locale codes for the languages Almanac speaks. */
export const UI_LOCALES = ['en', 'fr', 'de', 'it', 'pt-BR'] as const;
export type UiLocale = (typeof UI_LOCALES)[number];
