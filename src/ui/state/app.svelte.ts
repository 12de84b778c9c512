import type { Brain } from '../../lib/index';
import { BrainState } from './brain.svelte';
import { CheckpointsState } from './checkpoints.svelte';
import { DemoState } from './demo.svelte';
import { FollowState } from './follow.svelte';
import { LifecycleState } from './lifecycle.svelte';
import { PlanState } from './plan.svelte';
import { ProjectState } from './project.svelte';
import { Router } from './router.svelte';
import { SearchState } from './search.svelte';
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
  readonly project: ProjectState;
  readonly storage: StorageState;
  readonly lifecycle: LifecycleState;
  readonly checkpoints: CheckpointsState;
  readonly search: SearchState;
  readonly demo: DemoState;
  readonly follow: FollowState;
}

export function createAppModel(onOpen: (brain: Brain) => void): AppModel {
  const brain = new BrainState({
    onOpen: (opened) => {
      onOpen(opened);
      // The worker starts with no project: reopen the one of the last visit once the brain is open.
      queueMicrotask(() => void project.restore());
      // Followed folders go on being read after a reload, whatever view opens first.
      queueMicrotask(() => void follow.resume());
    },
  });
  const project = new ProjectState(brain);
  const follow = new FollowState(brain);
  return {
    brain,
    router: new Router(),
    theme: new ThemeState(),
    sessions: new SessionsState(brain),
    plan: new PlanState(brain),
    project,
    storage: new StorageState(brain),
    lifecycle: new LifecycleState(brain),
    checkpoints: new CheckpointsState(brain),
    search: new SearchState(brain),
    demo: new DemoState(brain, project),
    follow,
  };
}
