/** Toast kinds (SPEC §9). */
export type ToastKind = 'plain' | 'success' | 'error' | 'loading' | 'custom';
/** Where a toast is raised: the sign-up/login flows or the data views. */
export type ToastContext = 'auth' | 'data';

/** SPEC §9 durations in ms; Infinity means it stays until dismissed or replaced (loading). */
const TOAST_DURATIONS: Readonly<Record<ToastContext, Readonly<Record<ToastKind, number>>>> = {
  auth: { plain: 3000, success: 3000, error: 3000, loading: 3000, custom: 3000 },
  data: { plain: 4000, success: 2000, error: 4000, loading: Number.POSITIVE_INFINITY, custom: 4000 },
};

/** SPEC §9: at most 20 toasts visible at once; older ones are dismissed first. */
export const MAX_VISIBLE_TOASTS = 20;

/** The duration of a toast in ms (Infinity for a data-view loading toast). */
export function toastDuration(context: ToastContext, kind: ToastKind): number {
  return TOAST_DURATIONS[context][kind];
}
