import { mount } from 'svelte';
import App from './App.svelte';
import { createAppModel } from './state/app.svelte';
import './styles.css';

declare global {
  // The open brain's client, for scripting from the devtools console (see README).
  var agentBrain: import('../lib/index').Brain | undefined;
}

const app = createAppModel((brain) => {
  globalThis.agentBrain = brain;
});
mount(App, { target: document.getElementById('app') as HTMLElement, props: { app } });
void app.brain.open();

// Offline: the production build registers a service worker that precaches the app (see vite.config.ts).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
    console.warn('Offline support is unavailable:', error);
  });
}
