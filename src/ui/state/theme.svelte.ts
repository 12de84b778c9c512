import { asTheme, themeStorageKey, type Theme } from '../theme';

export { themeStorageKey, type Theme };

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;
interface DarkQuery {
  readonly matches: boolean;
  addEventListener(type: 'change', listener: (event: { matches: boolean }) => void): void;
  removeEventListener(type: 'change', listener: (event: { matches: boolean }) => void): void;
}

function browserStore(): KeyValueStore | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled by the browser's settings: the toggle still works for this visit
  }
}

/** Light or dark: the person's choice if they made one, else the system's. */
export class ThemeState {
  choice = $state<Theme | null>(null);
  systemDark = $state(false);
  theme: Theme = $derived(this.choice ?? (this.systemDark ? 'dark' : 'light'));
  #store: KeyValueStore | null;
  #query: DarkQuery | null;

  constructor(
    store: KeyValueStore | null = browserStore(),
    query: DarkQuery | null = globalThis.matchMedia?.('(prefers-color-scheme: dark)') ?? null,
  ) {
    this.#store = store;
    this.#query = query;
    this.choice = asTheme(store?.getItem(themeStorageKey) ?? null);
    this.systemDark = query?.matches ?? false;
  }

  /**
   * Follows the system setting while no choice was made, and a choice made in another tab of the app or its
   * playground pages (the storage event); returns the function that stops following.
   */
  start(): () => void {
    const query = this.#query;
    const listener = (event: { matches: boolean }) => {
      this.systemDark = event.matches;
    };
    query?.addEventListener('change', listener);
    const stored = (event: Event) => {
      if (!(event instanceof StorageEvent) || event.key !== themeStorageKey) return;
      this.choice = asTheme(event.newValue);
    };
    globalThis.addEventListener?.('storage', stored);
    return () => {
      query?.removeEventListener('change', listener);
      globalThis.removeEventListener?.('storage', stored);
    };
  }

  set(theme: Theme): void {
    this.choice = theme;
    try {
      this.#store?.setItem(themeStorageKey, theme);
    } catch {
      // A full or disabled storage only loses the memory of the choice, not the choice.
    }
  }

  toggle(): void {
    this.set(this.theme === 'dark' ? 'light' : 'dark');
  }
}
