/**
 * Hash routes: `#/<view>?key=value&…`. The hash holds what a person would want to link to or go back to
 * (the view and the selected session/task/entry), so the back button and shared links work.
 */
export const viewNames = ['demo', 'project', 'plan', 'sessions', 'checkpoints', 'storage', 'search'] as const;
export type ViewName = (typeof viewNames)[number];

export type RouteParams = Readonly<Record<string, string>>;

export interface Route {
  /** `null` when the hash names no known view: the app then picks its start view. */
  readonly view: ViewName | null;
  readonly params: RouteParams;
}

const isViewName = (value: string): value is ViewName => (viewNames as readonly string[]).includes(value);

export function parseHash(hash: string): Route {
  const text = hash.replace(/^#\/?/, '');
  const [path = '', query = ''] = text.split('?', 2);
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(query)) params[key] = value;
  return { view: isViewName(path) ? path : null, params };
}

export function routeToHash(
  view: ViewName,
  params: Readonly<Record<string, string | number | null | undefined>> = {},
): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== '') query.set(key, String(value));
  }
  const text = query.toString();
  return `#/${view}${text ? `?${text}` : ''}`;
}

/** A positive integer id from a route parameter, or null when absent or not an id. */
export function idParam(params: RouteParams, key: string): number | null {
  const raw = params[key];
  if (raw === undefined || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : null;
}
