import type { ViewName } from './route';

/** The views in navigation order. A view joins this list once the engine feature behind it has landed. */
export const views: readonly { readonly name: ViewName; readonly label: string; readonly icon: string }[] = [
  { name: 'demo', label: 'Demo', icon: '▶' },
  { name: 'project', label: 'Project', icon: '▦' },
  { name: 'plan', label: 'Plan & progress', icon: '✓' },
  { name: 'sessions', label: 'Sessions & tasks', icon: '☰' },
  { name: 'checkpoints', label: 'Checkpoints', icon: '±' },
  { name: 'storage', label: 'Storage', icon: '▤' },
  { name: 'search', label: 'History search', icon: '⌕' },
];

export const defaultView: ViewName = 'sessions';

/** The view an address without one opens: the demo on a first visit (an empty brain), else sessions & tasks. */
export function startView(hasSessions: boolean | null): ViewName {
  return hasSessions === false ? 'demo' : defaultView;
}

export function viewLabel(name: ViewName): string {
  return views.find((v) => v.name === name)?.label ?? name;
}
