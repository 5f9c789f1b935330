import type { Store, ToastLevel } from './store.js';

/** How long a toast stays on screen. */
export const TOAST_MS = 5000;

/** Shows a toast: `text` joins the stack (the newest five are kept) and leaves it after a while. */
export type Toaster = (text: string, level?: ToastLevel) => void;

/** The one place toasts are put on the store and taken off it again (after `ms`), each with its own id. */
export function toaster(store: Store, ms = TOAST_MS): Toaster {
  let lastId = 0;
  return (text, level = 'info') => {
    const id = ++lastId;
    store.update((s) => ({ toasts: [...s.toasts.slice(-4), { id, text, level }] }));
    setTimeout(() => store.update((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })), ms).unref();
  };
}
