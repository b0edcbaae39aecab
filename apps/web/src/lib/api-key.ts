const KEY_STORAGE = 'directory.apiKey';
const keyListeners = new Set<() => void>();
/** Whether the last key was dropped because the server refused it (not signed out). */
let refused = false;

function store(value: string | null, wasRefused: boolean) {
  try {
    if (value) sessionStorage.setItem(KEY_STORAGE, value);
    else sessionStorage.removeItem(KEY_STORAGE);
  } catch {
    // storage refused (private mode): the key is simply not kept
  }
  refused = wasRefused;
  for (const listener of keyListeners) listener();
}

/** The key lives in this tab's sessionStorage only: never in a URL, the bundle or a log. */
export const apiKey = {
  get(): string | null {
    try {
      return sessionStorage.getItem(KEY_STORAGE);
    } catch {
      return null;
    }
  },
  /** Signs in with `value`, or out with null. */
  set(value: string | null) {
    store(value, false);
  },
  /** Drops a key the server refused (401): the prompt says so. */
  refuse() {
    store(null, true);
  },
  refused(): boolean {
    return refused;
  },
  subscribe(listener: () => void) {
    keyListeners.add(listener);
    return () => keyListeners.delete(listener);
  },
};
