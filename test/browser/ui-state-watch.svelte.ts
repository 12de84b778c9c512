import { flushSync } from 'svelte';

/** Runs `read` in an effect, as a component would, and records every value it sees; returns [values, stop]. */
export function watch<T>(read: () => T): [T[], () => void] {
  const seen: T[] = [];
  const stop = $effect.root(() => {
    $effect(() => {
      seen.push(read());
    });
  });
  flushSync();
  return [seen, stop];
}
