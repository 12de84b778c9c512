import type { Brain } from '../../lib/index';
import { BrainState } from './brain.svelte';
import { PlanState } from './plan.svelte';
import { Router } from './router.svelte';
import { SessionsState } from './sessions.svelte';
import { StorageState } from './storage.svelte';
import { ThemeState } from './theme.svelte';

/** Everything the app's components read: one object built once in main.ts, handed down as a prop. */
export interface AppModel {
  readonly brain: BrainState;
  readonly router: Router;
  readonly theme: ThemeState;
  readonly sessions: SessionsState;
  readonly plan: PlanState;
  readonly storage: StorageState;
}

export function createAppModel(onOpen: (brain: Brain) => void): AppModel {
  const brain = new BrainState({ onOpen });
  return {
    brain,
    router: new Router(),
    theme: new ThemeState(),
    sessions: new SessionsState(brain),
    plan: new PlanState(brain),
    storage: new StorageState(brain),
  };
}
