/** The part of `navigator.serviceWorker` used here (a fake in tests). */
export interface UpdateSource {
  readonly ready: Promise<ServiceWorkerRegistration>;
  readonly controller: ServiceWorker | null;
}

/**
 * Whether a new build of the app is installed and waiting. The service worker is registered in "prompt" mode
 * (vite.config.ts): a new build never takes over open tabs — their code, chunks and database stay as they are —
 * and starts when every tab of the old one is closed, i.e. on the next visit. This only says so.
 */
export class UpdateState {
  waiting = $state(false);
  #source: UpdateSource | null;

  constructor(source: UpdateSource | null = globalThis.navigator?.serviceWorker ?? null) {
    this.#source = source;
  }

  start(): () => void {
    const source = this.#source;
    if (!source) return () => {};
    let stopped = false;
    let cleanup = () => {};
    void source.ready.then((registration) => {
      if (stopped) return;
      const check = () => {
        // A worker waiting while another controls this page is an update (a first install never waits).
        this.waiting = registration.waiting !== null && source.controller !== null;
      };
      const onFound = () => {
        registration.installing?.addEventListener('statechange', check);
        check();
      };
      registration.addEventListener('updatefound', onFound);
      if (registration.installing) onFound();
      check();
      cleanup = () => registration.removeEventListener('updatefound', onFound);
    });
    return () => {
      stopped = true;
      cleanup();
    };
  }
}
