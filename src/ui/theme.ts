/** The app's theme setting, shared by the app (state/theme.svelte.ts) and the playground pages (plain DOM). */
export type Theme = 'light' | 'dark';

/** Where the theme is remembered: this browser's localStorage, never agent.db (it is not the agent's memory). */
export const themeStorageKey = 'agent-brain.theme';

export const asTheme = (value: string | null): Theme | null =>
  value === 'light' || value === 'dark' ? value : null;

/**
 * The remembered theme before the first paint (no flash): injected into the head of every page of the app
 * (vite.config.ts, `themeBeforePaint`) as an inline script; the page's own code keeps it in sync afterwards.
 */
export const themeBootScript = `try {
  const theme = localStorage.getItem(${JSON.stringify(themeStorageKey)});
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
} catch {}`;
