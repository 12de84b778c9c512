/**
 * The page's dedicated workers' memory, sampled over the Chrome DevTools Protocol while something runs. A CDP
 * session on the page auto-attaches to its workers (non-flat sessions, so Playwright's own flat session on the same
 * page is untouched), holds each new worker before its script runs and instruments `WebAssembly` there (every
 * `WebAssembly.Memory` constructed or exported by an instance is remembered: SQLite's heap), then lets it start.
 * Each sample asks every worker for `Runtime.getHeapUsage` (the V8 heap: used, and total = what V8 has committed;
 * `backingStorageSize` = ArrayBuffer backing stores outside the heap — the wasm memory is not among them, measured:
 * 1.6 MB beside a 17 MB memory) and the byte length of its wasm memories. The peak kept per worker is the largest
 * heapTotal + backing + wasm of one sample, with each part's own maximum beside it. (`Runtime.queryObjects`, the
 * obvious way to find the memories, crashes a worker target in Chromium 156.)
 *
 * Create the sampler before the page starts the worker (a worker it finds running cannot be instrumented and is
 * refused at the first sample):
 *   const sampler = await sampleWorkerMemory(page);
 *   sampler.start();                      // polls every intervalMs until stop()
 *   … the work …
 *   const peak = await sampler.stop();    // { samples, heapUsed, heapTotal, backing, wasm, sum } in bytes
 *
 * Options: `intervalMs` (100; `start(ms)` changes it for one sampling), `worker(url)` → whether to sample that worker
 * (default every one: a bench that runs a worker of its own, as the follow section's writer, leaves it out).
 * `startCpu()` / `stopCpu()`: the share of one core the sampled worker was busy over that time, from a CDP CPU
 * profile of it (`Profiler.start`, a sample every `cpuIntervalUs`, default 1000 µs): the samples' time outside the
 * `(idle)` node (V8 marks a worker's thread idle while it waits for a message or a timer), over the wall time.
 */
import { writeFileSync } from 'node:fs';

const MiB = 1024 * 1024;

/** Run in a worker before its script: remembers every wasm memory made or exported there. */
const INSTRUMENT = `(() => {
  const seen = (globalThis.__benchWasmMemories = []);
  const keep = (x) => { if (x instanceof WebAssembly.Memory && !seen.includes(x)) seen.push(x); };
  const scan = (exports) => { for (const v of Object.values(exports ?? {})) keep(v); };
  WebAssembly.Memory = new Proxy(WebAssembly.Memory, {
    construct(target, args) { const m = Reflect.construct(target, args); keep(m); return m; },
  });
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async (...args) => {
    const r = await instantiate(...args);
    scan((r.instance ?? r).exports);
    return r;
  };
  const streaming = WebAssembly.instantiateStreaming;
  if (streaming) WebAssembly.instantiateStreaming = async (...args) => {
    const r = await streaming(...args);
    scan(r.instance.exports);
    return r;
  };
})()`;
const WASM_BYTES = 'globalThis.__benchWasmMemories?.reduce((n, m) => n + m.buffer.byteLength, 0) ?? null';

/** Returns a sampler bound to `page`'s workers (present and future). */
export async function sampleWorkerMemory(
  page,
  { intervalMs = 100, worker: wanted = () => true, cpuIntervalUs = 1000 } = {},
) {
  const cdp = await page.context().newCDPSession(page);
  const workers = new Map();
  const pending = new Map();
  let nextId = 1;
  let failure = null;

  /**
   * A CDP command to the worker at `sessionId` — a path `a/b/…` for a nested worker (one a worker started): the
   * command is wrapped in `Target.sendMessageToTarget` once per level, outermost first.
   */
  function send(sessionId, method, params = {}) {
    const id = nextId++;
    const path = sessionId.split('/');
    let message = JSON.stringify({ id, method, params });
    for (let i = path.length - 1; i > 0; i--)
      message = JSON.stringify({
        id: nextId++,
        method: 'Target.sendMessageToTarget',
        params: { sessionId: path[i], message },
      });
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, sessionId });
      cdp.send('Target.sendMessageToTarget', { sessionId: path[0], message }).catch((error) => {
        pending.delete(id);
        reject(error);
      });
    });
  }

  /** A message from the worker at `path`: a reply, or an event (a nested worker's message, attach or detach). */
  function received(path, message) {
    const reply = JSON.parse(message);
    if (reply.method === 'Target.receivedMessageFromTarget')
      return received(`${path}/${reply.params.sessionId}`, reply.params.message);
    if (reply.method === 'Target.attachedToTarget')
      return attached({ ...reply.params, sessionId: `${path}/${reply.params.sessionId}` });
    if (reply.method === 'Target.detachedFromTarget')
      return detached({ sessionId: `${path}/${reply.params.sessionId}` });
    const waiter = reply.id === undefined ? undefined : pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (reply.error) waiter.reject(new Error(`CDP ${reply.error.message}`));
    else waiter.resolve(reply.result);
  }

  function attached({ sessionId, targetInfo, waitingForDebugger }) {
    if (targetInfo.type !== 'worker') return;
    if (wanted(targetInfo.url)) workers.set(sessionId, { url: targetInfo.url });
    const go = () => send(sessionId, 'Runtime.runIfWaitingForDebugger');
    if (!wanted(targetInfo.url)) {
      go().catch((error) => {
        failure ??= error;
      });
      return;
    }
    // A worker that starts while sampling is profiled from its first line (BENCH_CPU_PROFILE).
    const profile = () => (running && profiling ? startProfile(sessionId) : undefined);
    // The workers it starts (the brain worker's line reader) are held and sampled the same way.
    const nested = () =>
      send(sessionId, 'Target.setAutoAttach', {
        autoAttach: true,
        waitForDebuggerOnStart: true,
        flatten: false,
      });
    const ready = waitingForDebugger
      ? send(sessionId, 'Runtime.evaluate', { expression: INSTRUMENT }).then(nested).then(profile).then(go)
      : go();
    ready.catch((error) => {
      failure ??= error;
    });
  }

  function detached({ sessionId }) {
    for (const key of [...workers.keys()])
      if (key === sessionId || key.startsWith(`${sessionId}/`)) workers.delete(key);
    // A worker that went away (terminated) while asked never answers: its questions end here, or a round waits
    // for them forever.
    for (const [id, waiter] of pending) {
      if (waiter.sessionId !== sessionId && !waiter.sessionId.startsWith(`${sessionId}/`)) continue;
      pending.delete(id);
      waiter.reject(new Error(`The worker (CDP session ${sessionId}) went away before it answered.`));
    }
  }

  cdp.on('Target.receivedMessageFromTarget', ({ sessionId, message }) => received(sessionId, message));
  cdp.on('Target.attachedToTarget', attached);
  cdp.on('Target.detachedFromTarget', detached);
  await cdp.send('Target.setAutoAttach', {
    autoAttach: true,
    waitForDebuggerOnStart: true,
    flatten: false,
  });

  async function sampleOne(sessionId, worker) {
    const [heap, wasm] = await Promise.all([
      send(sessionId, 'Runtime.getHeapUsage'),
      send(sessionId, 'Runtime.evaluate', { expression: WASM_BYTES, returnByValue: true }),
    ]);
    if (typeof wasm.result.value !== 'number')
      throw new Error(`Worker ${worker.url} was not instrumented (it started before the sampler).`);
    return {
      heapUsed: heap.usedSize,
      heapTotal: heap.totalSize,
      backing: heap.backingStorageSize ?? 0,
      wasm: wasm.result.value,
    };
  }

  const peaks = new Map();
  /** The largest sum over all sampled workers of one round (a brain worker and the line reader it started). */
  let peakTogether = 0;
  /** Every sample, kept only when asked (`BENCH_MEMORY_TRACE=<file>`: written as JSON lines by the caller). */
  const trace = [];
  const tracing = Boolean(process.env.BENCH_MEMORY_TRACE);
  let started0 = Date.now();
  let samples = 0;
  let running = false;
  let loop = null;
  let every = intervalMs;
  let cpuStarted = 0;
  /** Whether start() began the BENCH_CPU_PROFILE profiles (not while startCpu()'s own one runs: one at a time). */
  let profiling = false;
  let cpuActive = false;

  async function round() {
    const entries = [...workers.entries()];
    const results = await Promise.all(
      entries.map(([sessionId, worker]) =>
        sampleOne(sessionId, worker).catch((error) =>
          // A worker that went away between the listing and the reply is not a failure of the measure.
          workers.has(sessionId) ? Promise.reject(error) : null,
        ),
      ),
    );
    let together = 0;
    for (const [i, r] of results.entries()) {
      if (r === null) continue;
      together += r.heapTotal + r.backing + r.wasm;
      const key = entries[i][1].url;
      const p = peaks.get(key) ?? { heapUsed: 0, heapTotal: 0, backing: 0, wasm: 0, sum: 0 };
      p.heapUsed = Math.max(p.heapUsed, r.heapUsed);
      p.heapTotal = Math.max(p.heapTotal, r.heapTotal);
      p.backing = Math.max(p.backing, r.backing);
      p.wasm = Math.max(p.wasm, r.wasm);
      // What the worker holds at one moment: V8's committed heap, buffers outside it, SQLite's wasm memory.
      p.sum = Math.max(p.sum, r.heapTotal + r.backing + r.wasm);
      peaks.set(key, p);
      if (tracing) trace.push({ ms: Date.now() - started0, worker: key.split('/').pop(), ...r });
    }
    if (results.some((r) => r !== null)) samples++;
    peakTogether = Math.max(peakTogether, together);
  }

  function startProfile(sessionId) {
    return send(sessionId, 'Profiler.enable')
      .then(() => send(sessionId, 'Profiler.setSamplingInterval', { interval: 500 }))
      .then(() => send(sessionId, 'Profiler.start'));
  }

  async function writeProfiles(prefix) {
    let n = 0;
    for (const sessionId of workers.keys()) {
      const { profile } = await send(sessionId, 'Profiler.stop');
      writeFileSync(`${prefix}.${Date.now()}.${n++}.cpuprofile`, JSON.stringify(profile));
    }
  }

  /** Busy share of one core from a CDP profile: the samples' time outside `(idle)` over the profile's length. */
  function busyOf(profile) {
    const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
    const gc = new Set(
      profile.nodes.filter((n) => n.callFrame.functionName === '(garbage collector)').map((n) => n.id),
    );
    let idleUs = 0;
    let gcUs = 0;
    let allUs = 0;
    for (const [i, node] of profile.samples.entries()) {
      const dt = profile.timeDeltas[i + 1] ?? 0;
      allUs += dt;
      if (idle.has(node)) idleUs += dt;
      else if (gc.has(node)) gcUs += dt;
    }
    const wallUs = profile.endTime - profile.startTime;
    return {
      wallMs: wallUs / 1000,
      busyMs: (allUs - idleUs) / 1000,
      gcMs: gcUs / 1000,
      samples: profile.samples.length,
    };
  }

  return {
    /** Workers attached so far (url list). */
    workers: () => [...workers.values()].map((w) => w.url),
    /** Starts a CPU profile of each sampled worker (stopCpu() gives what it was busy). */
    async startCpu() {
      if (profiling) throw new Error('startCpu(): a BENCH_CPU_PROFILE profile of start() is running.');
      cpuStarted = Date.now();
      cpuActive = true;
      for (const sessionId of workers.keys()) {
        await send(sessionId, 'Profiler.enable');
        await send(sessionId, 'Profiler.setSamplingInterval', { interval: cpuIntervalUs });
        await send(sessionId, 'Profiler.start');
      }
    },
    /** { busy (share of one core, 0–1), busyMs, wallMs, gcMs, samples } of the busiest sampled worker. */
    async stopCpu() {
      const out = [];
      cpuActive = false;
      for (const sessionId of workers.keys()) {
        const { profile } = await send(sessionId, 'Profiler.stop');
        if (process.env.BENCH_CPU_PROFILE)
          writeFileSync(
            `${process.env.BENCH_CPU_PROFILE}.${cpuStarted}.cpu.cpuprofile`,
            JSON.stringify(profile),
          );
        const b = busyOf(profile);
        out.push({ ...b, busy: b.busyMs / b.wallMs });
      }
      if (out.length === 0) throw new Error('No worker to profile.');
      return out.reduce((a, b) => (b.busy > a.busy ? b : a));
    },
    start(ms = intervalMs) {
      every = ms;
      peaks.clear();
      peakTogether = 0;
      trace.length = 0;
      started0 = Date.now();
      samples = 0;
      running = true;
      // BENCH_CPU_PROFILE=<prefix>: a CPU profile of each worker while sampling, written at stop() as
      // <prefix>.<time>.<n>.cpuprofile (open in DevTools' Performance panel; build with BENCH_MINIFY=0 for names).
      profiling = Boolean(process.env.BENCH_CPU_PROFILE) && !cpuActive;
      if (profiling)
        for (const sessionId of workers.keys())
          void startProfile(sessionId).catch((error) => {
            failure ??= error;
          });
      loop = (async () => {
        while (running) {
          const started = Date.now();
          try {
            await round();
          } catch (error) {
            failure = error;
            running = false;
          }
          const wait = every - (Date.now() - started);
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        }
      })();
    },
    /**
     * Stops after one last round: the peaks of the worker that peaked highest, in bytes; `together`, the largest
     * sum of all workers in one round; how many workers were sampled; the sample count.
     */
    async stop() {
      running = false;
      await loop;
      if (failure) throw failure;
      await round();
      if (profiling) await writeProfiles(process.env.BENCH_CPU_PROFILE);
      profiling = false;
      const all = [...peaks.values()];
      if (all.length === 0 || samples === 0)
        throw new Error('No worker memory sample was taken (no worker attached?).');
      const top = all.reduce((a, b) => (b.sum > a.sum ? b : a));
      return { ...top, together: peakTogether, samples, workers: all.length, trace: [...trace] };
    },
    async dispose() {
      running = false;
      await loop;
      await cdp.detach().catch(() => {});
    },
  };
}

export const mib = (bytes) => `${(bytes / MiB).toFixed(0)} MiB`;
