/**
 * CPU time of the page's dedicated-worker threads, from Linux's /proc (utime + stime of each thread): what a worker
 * really used of a core, which a CDP CPU profile does not tell apart from time blocked in a synchronous call (an
 * OPFS write waiting for the disk counts as busy there). The renderer processes are found over the browser's CDP
 * session (`SystemInfo.getProcessInfo`); worker threads are named "DedicatedWorker" (thread names are cut to 15
 * characters). Linux only: elsewhere `workerThreads` returns null.
 *
 *   const before = await workerThreads(browser);   // [{ pid, tid }] of every dedicated worker now
 *   … start the worker to measure …
 *   const [brain] = newThreads(before, await workerThreads(browser));
 *   const t0 = threadCpuMs(brain); … ; const used = threadCpuMs(brain) - t0;
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: clock ticks per second of /proc's times (100 on every Linux this runs on). */
const TICKS_PER_SECOND = 100;

export async function workerThreads(browser) {
  if (!existsSync('/proc/self/task')) return null;
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
    const out = [];
    for (const p of processInfo.filter((x) => x.type === 'renderer')) {
      let tasks;
      try {
        tasks = readdirSync(`/proc/${p.id}/task`);
      } catch {
        continue; // not visible here (another PID namespace) or gone
      }
      for (const tid of tasks) {
        try {
          if (readFileSync(`/proc/${p.id}/task/${tid}/comm`, 'utf8').startsWith('DedicatedWorker'))
            out.push({ pid: p.id, tid: Number(tid) });
        } catch {
          // the thread ended meanwhile
        }
      }
    }
    return out;
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/** Threads in `after` that were not in `before`. */
export function newThreads(before, after) {
  if (before === null || after === null) return [];
  const had = new Set(before.map((t) => `${t.pid}/${t.tid}`));
  return after.filter((t) => !had.has(`${t.pid}/${t.tid}`));
}

/** The thread's CPU time so far (user + system), in ms. */
export function threadCpuMs({ pid, tid }) {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) in parentheses: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}
