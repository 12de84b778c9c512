/**
 * How long the page's main thread was blocked while something ran: the longest task Chromium reports
 * ('longtask' entries, ≥ 50 ms) and the longest gap between beats of a MessageChannel heartbeat.
 */
export interface MainThreadReport {
  /** The longest 'longtask' entry seen, in ms (0 when none reached 50 ms). */
  readonly longestTask: number;
  /** The longest time between two heartbeats, in ms. */
  readonly longestGap: number;
  /** Heartbeats seen: a control that the heartbeat ran at all. */
  readonly beats: number;
}

export interface MainThreadWatch {
  /** Resolves once the heartbeat has beaten a few times (the watch is running), instead of waiting a set time. */
  started(): Promise<void>;
  /** Stops watching once every task that ended has been reported. */
  stop(): Promise<MainThreadReport>;
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

// Held while beating: a MessagePort nothing refers to may be collected mid-beat, and the heart would stop unseen.
const channels = new Set<MessageChannel>();

export function watchMainThread(): MainThreadWatch {
  let longestTask = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longestTask = Math.max(longestTask, entry.duration);
  });
  observer.observe({ type: 'longtask', buffered: false });
  let longestGap = 0;
  let last = performance.now();
  let beating = true;
  let beats = 0;
  let onStarted: (() => void) | null = null;
  const startedSignal = new Promise<void>((resolve) => (onStarted = resolve));
  const channel = new MessageChannel();
  channels.add(channel);
  channel.port1.onmessage = () => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
    beats++;
    if (beats === 3) onStarted?.();
    // A beat every ~4 ms: often enough to see any long task, idle enough to leave the page its own work.
    if (beating) setTimeout(() => channel.port2.postMessage(0), 4);
  };
  channel.port2.postMessage(0);
  return {
    started: () => startedSignal,
    async stop() {
      await nextFrame();
      await nextFrame();
      // 'longtask' entries are queued after the task ends: take the ones still pending, then stop.
      for (const entry of observer.takeRecords()) longestTask = Math.max(longestTask, entry.duration);
      observer.disconnect();
      beating = false;
      channel.port1.close();
      channels.delete(channel);
      // The gap since the last beat counts too, in case the heart stopped while something still ran.
      longestGap = Math.max(longestGap, performance.now() - last);
      return { longestTask, longestGap, beats };
    },
  };
}
