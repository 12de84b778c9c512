/**
 * In-page half of the "record-event" section: what one more event costs in a long session against a short one.
 * Two brains (worker, wa-sqlite, OPFS), each a session seeded through the public path — `recordEvents` in
 * batches of 10 000 (each batch one transaction and one automatic compression) — then single `recordEvent`
 * calls timed from the page, alternating between the two sessions in blocks so load drift hits both alike.
 * Every ~160 events one of them passes the active-context bound and compresses inside that call: those calls
 * are in the sample and also reported apart.
 */
import { openBrain, type Brain, type NewEventInput, type SessionId } from '../../../src/lib/index';
import { createRandom, type Random } from '../../helpers/random';
import { percentile } from '../lib/history-timing';
import { progress } from './progress';

export interface RecordEventBenchOptions {
  readonly dbName: string;
  /** Events seeded in each session, e.g. [1000, 1000000]. */
  readonly sizes: readonly number[];
  /** Timed single events per session in a block; blocks alternate between the sessions. */
  readonly perBlock: number;
  readonly blocks: number;
  readonly seed: number;
}

const words = (
  'the a to of and in is for test fix file change add parser error value csv export quote delimiter header ' +
  'row column report query cache retry timeout token session checkpoint diff schema index search worker'
).split(' ');
const paths = Array.from({ length: 300 }, (_, i) => `src/${words[i % words.length]}/${i}.ts`);
const checks = ['npm test', 'typecheck', 'lint', 'e2e', 'build'];

/** Mixed events for one session; links (supersede, resolve, answer) point at events recorded before. */
function eventMaker(random: Random, sessionId: SessionId) {
  const decisions: number[] = [];
  const questions: number[] = [];
  const openBlockers: number[] = [];
  const sentence = () => Array.from({ length: random.int(4, 12) }, () => random.pick(words)).join(' ');
  const make = (): NewEventInput => {
    const r = random.next();
    if (r < 0.3) return { sessionId, kind: 'note', text: sentence() };
    if (r < 0.48) return { sessionId, kind: 'file_change', path: random.pick(paths), text: sentence() };
    if (r < 0.63)
      return {
        sessionId,
        kind: 'validation',
        name: random.pick(checks),
        result: random.next() < 0.3 ? 'failed' : 'passed',
        text: sentence(),
      };
    if (r < 0.75) {
      const supersedes = decisions.length > 0 && random.next() < 0.3 ? random.pick(decisions) : null;
      return { sessionId, kind: 'decision', text: sentence(), why: sentence(), supersedes } as NewEventInput;
    }
    if (r < 0.82) return { sessionId, kind: 'instruction', text: sentence() };
    if (r < 0.86) return { sessionId, kind: 'question', text: sentence() };
    if (r < 0.89 && questions.length > 0)
      return {
        sessionId,
        kind: 'answer',
        answers: random.pick(questions),
        text: sentence(),
      } as NewEventInput;
    if (r < 0.92) return { sessionId, kind: 'blocker', text: sentence() };
    if (r < 0.95 && openBlockers.length > 0) {
      const resolves = openBlockers.splice(random.int(0, openBlockers.length), 1)[0] as number;
      return { sessionId, kind: 'blocker_resolved', resolves, text: sentence() } as NewEventInput;
    }
    return { sessionId, kind: 'progress', text: sentence(), next: sentence() };
  };
  /** Remembers what the recorded events can be linked to later. */
  const recorded = (inputs: readonly NewEventInput[], ids: readonly number[]) =>
    inputs.forEach((input, i) => {
      const id = ids[i] as number;
      if (input.kind === 'decision') decisions.push(id);
      else if (input.kind === 'question') questions.push(id);
      else if (input.kind === 'blocker') openBlockers.push(id);
      if (decisions.length > 1_000) decisions.shift();
      if (questions.length > 1_000) questions.shift();
    });
  return { make, recorded };
}

interface Seeded {
  readonly size: number;
  readonly brain: Brain;
  readonly sessionId: SessionId;
  readonly events: ReturnType<typeof eventMaker>;
  readonly seedSeconds: number;
}

async function seed(dbName: string, size: number, seedValue: number): Promise<Seeded> {
  const brain = await openBrain({ dbName, closeOnPageHide: false });
  const { id: sessionId } = await brain.startSession({ title: `record-event bench, ${size} events` });
  await brain.startTask({ sessionId, title: 'a long task' });
  const events = eventMaker(createRandom(seedValue), sessionId);
  const started = performance.now();
  for (let done = 0; done < size;) {
    const batch = Array.from({ length: Math.min(10_000, size - done) }, events.make);
    const { ids } = await brain.recordEvents(batch);
    events.recorded(batch, ids);
    done += batch.length;
    progress(`seeding a ${size.toLocaleString('en')}-event session`, done, size);
  }
  return { size, brain, sessionId, events, seedSeconds: (performance.now() - started) / 1000 };
}

interface Sample {
  readonly ms: number;
  readonly compressed: boolean;
}

/**
 * The control: the smallest write transaction (one message row: no search document, no compression check), the
 * same round trip and commit on OPFS — what the machine's load and the disk's syncs cost alone.
 */
async function timeSmallWrite(s: Seeded): Promise<number> {
  const started = performance.now();
  await s.brain.recordMessage({ sessionId: s.sessionId, role: 'assistant', content: 'ok' });
  return performance.now() - started;
}

async function timeOne(s: Seeded): Promise<Sample> {
  const input = s.events.make();
  const started = performance.now();
  const recorded = await s.brain.recordEvent(input);
  const ms = performance.now() - started;
  if (recorded.autoCompressError)
    throw new Error(`automatic compression failed: ${recorded.autoCompressError}`);
  s.events.recorded([input], [recorded.id]);
  return { ms, compressed: recorded.autoCompressed === true };
}

function figures(samples: readonly Sample[], reads: readonly number[]) {
  const floor = [...reads].sort((a, b) => a - b);
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const compressing = samples
    .filter((s) => s.compressed)
    .map((s) => s.ms)
    .sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? NaN,
    compressions: compressing.length,
    compressionP50: percentile(compressing, 50),
    compressionMax: compressing.at(-1) ?? NaN,
    readP50: percentile(floor, 50),
    readP95: percentile(floor, 95),
  };
}

export async function recordEventBench(options: RecordEventBenchOptions) {
  const seeded: Seeded[] = [];
  try {
    for (const [i, size] of options.sizes.entries())
      seeded.push(await seed(`${options.dbName}-${size}.db`, size, options.seed + i));
    // Warm-up: a few events each (first statements compiled, caches filled).
    for (const s of seeded) for (let i = 0; i < 20; i++) await timeOne(s);
    const samples = seeded.map(() => [] as Sample[]);
    const reads = seeded.map(() => [] as number[]);
    for (let block = 0; block < options.blocks; block++) {
      for (const [i, s] of seeded.entries()) {
        for (let k = 0; k < options.perBlock; k++) (samples[i] as Sample[]).push(await timeOne(s));
        for (let k = 0; k < options.perBlock; k++) (reads[i] as number[]).push(await timeSmallWrite(s));
      }
      progress('timing single events', (block + 1) * options.perBlock, options.blocks * options.perBlock);
    }
    const results = [];
    for (const [i, s] of seeded.entries()) {
      const { checkpoint } = await s.brain.activeCheckpoint(s.sessionId);
      const info = await s.brain.info();
      results.push({
        size: s.size,
        seedSeconds: s.seedSeconds,
        fileBytes: info.fileBytes,
        eventCount: checkpoint.eventCount,
        expectedEvents: s.size + 20 + options.blocks * options.perBlock,
        ...figures(samples[i] as Sample[], reads[i] as number[]),
      });
    }
    return results;
  } finally {
    for (const s of seeded) await s.brain.close();
  }
}
