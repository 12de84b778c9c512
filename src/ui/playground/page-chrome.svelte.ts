/**
 * What the playground pages share with the app: its style sheet, its header (AppHeader.svelte, mounted here) and
 * its theme — ThemeState, the person's choice remembered in localStorage under the app's key (else the system's),
 * applied before the first paint by the inline script every page gets (theme.ts, vite.config.ts), switched by the
 * header's button for the app too, and followed when the app changes it in another tab.
 */
import { mount } from 'svelte';
import '../styles.css';
import './playground.css';
import AppHeader from '../components/AppHeader.svelte';
import { ThemeState } from '../state/theme.svelte';

/** Mounts the app's header at the top of the page, with a way back to the app, and keeps the page's theme. */
export function mountPageChrome(page: { readonly name: string; readonly tagline: string }): ThemeState {
  const theme = new ThemeState();
  $effect.root(() => {
    $effect(() => theme.start());
    $effect(() => {
      document.documentElement.dataset['theme'] = theme.theme;
    });
  });
  mount(AppHeader, {
    target: document.body,
    anchor: document.body.firstChild ?? undefined,
    props: {
      theme,
      page: page.name,
      tagline: page.tagline,
      links: [{ href: '/', label: '← Back to the app' }],
    },
  });
  return theme;
}
