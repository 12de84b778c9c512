import { parseHash, routeToHash, type Route, type ViewName } from '../route';

interface HashHost {
  readonly location: { hash: string };
  addEventListener(type: 'hashchange', listener: () => void): void;
  removeEventListener(type: 'hashchange', listener: () => void): void;
}

/** The current route, read from and written to `location.hash` (so back/forward and links just work). */
export class Router {
  route = $state.raw<Route>({ view: null, params: {} });
  #host: HashHost;

  constructor(host: HashHost = window) {
    this.#host = host;
    this.route = parseHash(host.location.hash);
  }

  /** Follows the hash; returns the function that stops following. */
  start(): () => void {
    const sync = () => {
      this.route = parseHash(this.#host.location.hash);
    };
    this.#host.addEventListener('hashchange', sync);
    sync();
    return () => this.#host.removeEventListener('hashchange', sync);
  }

  href(view: ViewName, params: Readonly<Record<string, string | number | null | undefined>> = {}): string {
    return routeToHash(view, params);
  }

  go(view: ViewName, params: Readonly<Record<string, string | number | null | undefined>> = {}): void {
    const hash = routeToHash(view, params);
    if (this.#host.location.hash !== hash) this.#host.location.hash = hash;
    // Set at once as well: a component reading the route right after `go` sees the new one.
    this.route = parseHash(hash);
  }
}
