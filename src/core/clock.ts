/** Injected so tests control time; never patch globals. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function fixedClock(start = 1_700_000_000_000, stepMs = 1): Clock {
  let t = start;
  return {
    now: () => {
      const value = t;
      t += stepMs;
      return value;
    },
  };
}
