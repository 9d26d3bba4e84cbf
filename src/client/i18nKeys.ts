/**
 * Keys built at run time, typed. Translation keys are checked against locales/en (i18next.d.ts); a key built
 * from a closed set is checked by typing the set (`domain:alarms.frequency.${Lowercase<AlarmFrequency>}`).
 * What is left, codes from an open set the server chooses (error codes, audit actions, charge kinds), goes
 * through orFallback, so every unchecked key is visible by name (quantity ids: quantityKey in src/lib/quantities.ts).
 */
import type { CustomTypeOptions } from 'i18next';

type Resources = CustomTypeOptions['resources'];

/** Every dotted path to a text in a resource object. */
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** The keys of one namespace's texts, as in locales/en (i18next's ParseKeys widens to every namespace). */
export type KeysOf<N extends keyof Resources> = Leaves<Resources[N]>;
/**
 * `t(orFallback(`errors.${code}`, 'errors.UNKNOWN'))`: i18next tries the built key (or keys, in order), then
 * the fallback. Only the fallback is type-checked (the built keys are typed as it), so a code no locale knows
 * yet still reads well.
 */
export function orFallback<const Fallback extends string>(
  key: string | readonly string[],
  fallback: Fallback,
): Fallback[] {
  return [...(typeof key === 'string' ? [key] : key), fallback] as Fallback[];
}

/** A GraphQL enum value as the lower-case code of its translation key ('WEEK' → 'week'). */
export function lower<T extends string>(value: T): Lowercase<T> {
  return value.toLowerCase() as Lowercase<T>;
}
