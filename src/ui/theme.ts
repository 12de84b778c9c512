/** The app's theme setting, shared by the app (state/theme.svelte.ts) and the playground pages (plain DOM). */
export type Theme = 'light' | 'dark';

/** Where the theme is remembered: this browser's localStorage, never agent.db (it is not the agent's memory). */
export const themeStorageKey = 'agent-brain.theme';

export const asTheme = (value: string | null): Theme | null =>
  value === 'light' || value === 'dark' ? value : null;
