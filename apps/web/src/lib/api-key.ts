const KEY_STORAGE = 'directory.apiKey';
const keyListeners = new Set<() => void>();

/** The key lives in this tab's sessionStorage only: never in a URL, the bundle or a log. */
export const apiKey = {
  get(): string | null {
    try {
      return sessionStorage.getItem(KEY_STORAGE);
    } catch {
      return null;
    }
  },
  set(value: string | null) {
    try {
      if (value) sessionStorage.setItem(KEY_STORAGE, value);
      else sessionStorage.removeItem(KEY_STORAGE);
    } catch {
      // storage refused (private mode): the key is simply not kept
    }
    for (const listener of keyListeners) listener();
  },
  subscribe(listener: () => void) {
    keyListeners.add(listener);
    return () => keyListeners.delete(listener);
  },
};
