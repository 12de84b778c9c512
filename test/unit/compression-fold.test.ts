/**
 * The compression fold against the whole-log extractor it replaces (compression-reference.ts, the code before the
 * fold): thousands of random logs of every kind, compressed at random points the way the engine does it — load the
 * saved state (through its JSON), fold the events after it, plan from the fold and the active events only, mark
 * the moved events, save — and at every compression the compression plan (active checkpoint, summary, budget with
 * every verdict, what moves, the tail) and the resume's done validations must equal the reference's over the whole
 * log.
 */
import { describe, expect, it } from 'vitest';
import {
  foldEvents,
  initialFold,
  stepFold,
  type CompressionFold,
  type FoldLimits,
} from '../../src/core/compression/fold';
import { finishFold } from '../../src/core/compression/fold-finish';
import { FOLD_FORMAT, foldFromJson, foldToJson } from '../../src/core/compression/fold-json';
import { planCompressionFromFold } from '../../src/core/compression/plan-compression';
import type { FileChangeKind, SessionEvent, ValidationResult } from '../../src/core/events/model';
import { asPlanStepId } from '../../src/core/events/model';
import { asCheckpointEntryId, asEventId, asTaskId, type EventId } from '../../src/core/ids';
import type { Plan, PlanStepState } from '../../src/core/plan/model';
import { validationsDone } from '../../src/engine/compression/resume';
import { createRandom, type Random } from '../helpers/random';
import {
  referenceExtract,
  referencePlanCompression,
  referenceValidationsDone,
} from './compression-reference';
import { session } from './events-fixtures';

const states: PlanStepState[] = ['todo', 'started', 'done', 'skipped'];

function randomPlan(random: Random): Plan | null {
  if (random.next() < 0.3) return null;
  const steps = random.int(1, 6);
  return {
    taskId: asTaskId(1),
    goal: random.next() < 0.2 ? '' : 'Ship the export',
    createdAt: 0,
    updatedAt: 0,
    steps: Array.from({ length: steps }, (_, i) => ({
      id: asPlanStepId(i + 1),
      n: i + 1,
      what: `step ${i + 1}`,
      why: random.next() < 0.5 ? '' : `because ${i + 1}`,
      state: random.pick(states),
      startedAt: null,
      finishedAt: null,
    })),
  };
}

/** The plan is the current one, not folded: steps move between compressions. */
const movedPlan = (random: Random, plan: Plan): Plan => ({
  ...plan,
  steps: plan.steps.map((s) => (random.next() < 0.3 ? { ...s, state: random.pick(states) } : s)),
});

const instructionTexts = [
  'Add CSV export',
  'add  csv export',
  'Use ISO dates',
  'Ship today',
  'Keep it small',
];
const words = ['quote', 'delimiter', 'header', 'row', 'retry', 'parser', 'token', 'cache'];
const paths = ['src/a.ts', 'src/b.ts', 'src/c.ts', 'test/a.test.ts', 'README.md'];
const checks = ['npm test', 'typecheck', 'lint'];
const changes: FileChangeKind[] = ['created', 'modified', 'deleted'];
const results: ValidationResult[] = ['passed', 'passed', 'failed', 'error'];

/** Links made, and how many of them point at an event an earlier compression already folded and moved. */
interface LinkStats {
  supersedes: number;
  resolves: number;
  answers: number;
  acrossSupersedes: number;
  acrossResolves: number;
  acrossAnswers: number;
}

/** A generator of valid events: ids increase (with gaps, as other sessions interleave), links point back. */
function eventSource(random: Random, stats: LinkStats) {
  let id = 0;
  let entry = 0;
  const decisions: EventId[] = [];
  const blockers: EventId[] = [];
  const openBlockers = new Set<EventId>();
  const questions: EventId[] = [];
  const sentence = () =>
    Array.from({ length: random.int(1, 5) }, () => random.pick(words)).join(random.next() < 0.1 ? '  ' : ' ');
  return (foldedUpto: number): SessionEvent => {
    id += random.next() < 0.2 ? random.int(2, 5) : 1;
    const common = {
      id: asEventId(id),
      sessionId: session,
      taskId: random.next() < 0.3 ? null : asTaskId(random.int(1, 3)),
      stepId: null,
      planStepId: random.next() < 0.7 ? null : asPlanStepId(random.int(1, 8)),
      text: sentence(),
      createdAt: 1_700_000_000_000 + id * 1000,
      compressedAt: null,
    };
    const across = (target: EventId) => target <= foldedUpto;
    const r = random.next();
    if (r < 0.1) return { ...common, kind: 'instruction', text: random.pick(instructionTexts) };
    if (r < 0.24) {
      const target = decisions.length > 0 && random.next() < 0.45 ? random.pick(decisions) : null;
      if (target !== null) {
        stats.supersedes++;
        if (across(target)) stats.acrossSupersedes++;
      }
      decisions.push(common.id);
      return {
        ...common,
        kind: 'decision',
        why: random.next() < 0.5 ? null : sentence(),
        supersedes: target,
      };
    }
    if (r < 0.38) {
      return {
        ...common,
        kind: 'file_change',
        path: random.pick(paths),
        change: random.pick(changes),
        text: random.next() < 0.3 ? '' : sentence(),
        checkpointEntryId: random.next() < 0.4 ? null : asCheckpointEntryId(++entry),
        // Some changes only shown by a diff the agent printed (no draw: the other events stay as they were).
        ...(id % 7 === 3 ? { shown: true as const } : {}),
      };
    }
    if (r < 0.52)
      return { ...common, kind: 'validation', name: random.pick(checks), result: random.pick(results) };
    if (r < 0.59) {
      blockers.push(common.id);
      openBlockers.add(common.id);
      return { ...common, kind: 'blocker' };
    }
    if (r < 0.65 && blockers.length > 0) {
      // The engine refuses a second resolution; the extractors agree on one anyway (the first wins).
      const open = [...openBlockers];
      const target = open.length > 0 && random.next() < 0.9 ? random.pick(open) : random.pick(blockers);
      openBlockers.delete(target);
      stats.resolves++;
      if (across(target)) stats.acrossResolves++;
      return { ...common, kind: 'blocker_resolved', resolves: target };
    }
    if (r < 0.72) {
      questions.push(common.id);
      return { ...common, kind: 'question' };
    }
    if (r < 0.79 && questions.length > 0) {
      // Answered questions may be answered again (the engine allows it).
      const target = random.pick(questions);
      stats.answers++;
      if (across(target)) stats.acrossAnswers++;
      return { ...common, kind: 'answer', answers: target };
    }
    if (r < 0.84) {
      return {
        ...common,
        kind: random.next() < 0.5 ? 'plan_step_started' : 'plan_step_done',
        planStepId: asPlanStepId(random.int(1, 8)),
      };
    }
    if (r < 0.9) return { ...common, kind: 'progress', next: random.next() < 0.4 ? null : sentence() };
    return { ...common, kind: 'note' };
  };
}

/** Deep equality, fast when equal (the JSON text), with the full diff when not. */
function same(got: unknown, want: unknown, where: string) {
  if (JSON.stringify(got) !== JSON.stringify(want)) expect(got, where).toEqual(want);
}

/** The engine's way: the saved state (through its JSON) with the events after it folded in. */
function resume(saved: string | null, events: readonly SessionEvent[]): CompressionFold {
  const fold = saved === null ? initialFold() : foldFromJson(saved);
  if (fold === null) throw new Error('the saved fold did not read back');
  const after = fold.lastEventId ?? 0;
  return foldEvents(
    fold,
    events.filter((e) => e.id > after),
  );
}

/** One random session, compressed at random points; returns how many compressions it checked. */
function checkSession(seed: number, length: number, stats: LinkStats): number {
  const random = createRandom(seed);
  const next = eventSource(random, stats);
  let plan = randomPlan(random);
  const taskTitle = random.pick([null, '', 'CSV export']);
  let events: SessionEvent[] = [];
  let saved: string | null = null;
  let foldedUpto = 0;
  let checked = 0;
  let previousSummaryChars = 0;
  for (let i = 0; i < length; i++) {
    events.push(next(foldedUpto));
    if (plan && random.next() < 0.03) plan = movedPlan(random, plan);
    const last = i === length - 1;
    if (!last && random.next() < 0.975) continue;
    const fold = resume(saved, events);
    if (!last && random.next() < 0.3) {
      // A read that saves its fold without compressing (resumePoint after a long fold).
      same(
        finishFold(fold, { sessionId: session, taskId: null, taskTitle, plan }),
        referenceExtract({ sessionId: session, taskId: null, taskTitle, events, plan }).checkpoint,
        `seed ${seed}, event ${i}`,
      );
      saved = foldToJson(fold);
      continue;
    }
    const input = {
      sessionId: session,
      taskId: asTaskId(1),
      taskTitle,
      plan,
      previousSummaryChars,
      limits: { keepTail: random.int(0, 8), maxTailChars: random.pick([32_000, 300]) },
      render: { taskTitle, compressedAt: 1_800_000_000_000 + i },
    };
    const active = events.filter((e) => e.compressedAt === null);
    const got = planCompressionFromFold({ ...input, fold, active });
    const want = referencePlanCompression({ ...input, events });
    same(got, want, `seed ${seed}, event ${i}`);
    same(validationsDone(fold), referenceValidationsDone(events), `seed ${seed}, event ${i}`);
    checked++;
    const moved = new Set(got.compress.map((e) => e.id));
    events = events.map((e) => (moved.has(e.id) ? { ...e, compressedAt: 1_800_000_000_000 + i } : e));
    previousSummaryChars = got.markdown.length;
    saved = foldToJson(fold);
    foldedUpto = fold.lastEventId ?? 0;
  }
  return checked;
}

describe('the compression fold', () => {
  it(
    'equals the whole-log extractor on 3,000 random logs compressed at random points',
    { timeout: 180_000 },
    () => {
      const stats: LinkStats = {
        supersedes: 0,
        resolves: 0,
        answers: 0,
        acrossSupersedes: 0,
        acrossResolves: 0,
        acrossAnswers: 0,
      };
      let compressions = 0;
      let events = 0;
      for (let seed = 1; seed <= 3_000; seed++) {
        const length = seed % 100 === 0 ? 500 : createRandom(seed * 7919).int(1, 120);
        compressions += checkSession(seed, length, stats);
        events += length;
      }
      // The generator did what the test is about: many compressions, links across them of every kind.
      expect(events).toBeGreaterThan(150_000);
      console.info(`${events} events in 3,000 logs, ${compressions} compressions checked`, stats);
      expect(compressions).toBeGreaterThan(4_000);
      expect(stats.acrossSupersedes).toBeGreaterThan(2_000);
      expect(stats.acrossResolves).toBeGreaterThan(1_000);
      expect(stats.acrossAnswers).toBeGreaterThan(2_000);
    },
  );

  it('reads the same from any order, like the extractor, and refuses an event folded twice', () => {
    const stats = {
      supersedes: 0,
      resolves: 0,
      answers: 0,
      acrossSupersedes: 0,
      acrossResolves: 0,
      acrossAnswers: 0,
    };
    const next = eventSource(createRandom(5), stats);
    const events = Array.from({ length: 50 }, () => next(0));
    const fold = foldEvents(initialFold(), events);
    expect(() => stepFold(fold, events[10] as SessionEvent)).toThrow(/not newer/);
  });
});

describe('the saved fold', () => {
  const longLog = (n: number) => {
    // Every item distinct and never closed: what grows without bound if nothing is capped.
    const out: SessionEvent[] = [];
    for (let i = 1; i <= n; i++) {
      const common = {
        id: asEventId(i),
        sessionId: session,
        taskId: null,
        stepId: null,
        planStepId: null,
        text: `item ${i}`,
        createdAt: i,
        compressedAt: null,
      };
      const k = i % 7;
      out.push(
        k === 0
          ? { ...common, kind: 'decision', why: null, supersedes: i > 7 ? asEventId(i - 7) : null }
          : k === 1
            ? { ...common, kind: 'decision', why: null, supersedes: null }
            : k === 2
              ? {
                  ...common,
                  kind: 'file_change',
                  path: `src/f${i}.ts`,
                  change: 'modified',
                  checkpointEntryId: asCheckpointEntryId(i),
                }
              : k === 3
                ? {
                    ...common,
                    kind: 'file_change',
                    path: 'src/hot.ts',
                    change: 'modified',
                    checkpointEntryId: asCheckpointEntryId(i),
                  }
                : k === 4
                  ? { ...common, kind: 'validation', name: `check ${i}`, result: 'failed' }
                  : k === 5
                    ? { ...common, kind: i % 2 ? 'blocker' : 'question' }
                    : { ...common, kind: 'instruction', text: `instruction ${i}` },
      );
    }
    return out;
  };

  it('stays bounded: its size does not grow with the log, each list capped at its newest items', () => {
    const limits: FoldLimits = {
      maxEarlierInstructions: 10,
      maxAnswers: 10,
      maxItems: 50,
      maxLinks: 20,
      maxChecks: 60,
    };
    const sizeAfter = (n: number) => foldToJson(foldEvents(initialFold(limits), longLog(n))).length;
    const small = sizeAfter(5_000);
    const large = sizeAfter(50_000);
    // Ids grow a digit or so longer; nothing else may grow.
    expect(large / small).toBeLessThan(1.25);

    const events = longLog(50_000);
    const fold = foldEvents(initialFold(limits), events);
    const cp = finishFold(fold, { sessionId: session, taskId: null, plan: null });
    const hotEdits = events.filter((e) => e.kind === 'file_change' && e.path === 'src/hot.ts').length;
    expect(cp.decisions).toHaveLength(50);
    expect(cp.decisions.at(-1)?.eventId).toBe(events.findLast((e) => e.kind === 'decision')?.id);
    expect(Math.max(...cp.decisions.map((d) => d.replaces.length))).toBe(20);
    expect(cp.files).toHaveLength(50);
    expect(cp.files.find((f) => f.path === 'src/hot.ts')).toMatchObject({ edits: hotEdits });
    expect(cp.files.find((f) => f.path === 'src/hot.ts')?.checkpointEntryIds).toHaveLength(20);
    expect(cp.validations.length).toBeLessThanOrEqual(60);
    expect(cp.openBlockers).toHaveLength(50);
    expect(cp.openQuestions).toHaveLength(50);
    expect(cp.earlierInstructions).toHaveLength(10);
    expect(fold.retired.size).toBeLessThanOrEqual(50);
    expect(fold.questionTexts.size).toBeLessThanOrEqual(50);
    expect(cp.eventCount).toBe(50_000);
  });

  it('with the default limits holds the active checkpoint of the whole log below them, and its newest items beyond', () => {
    const events = longLog(3_000);
    const fold = foldEvents(initialFold(), events);
    const cp = finishFold(fold, { sessionId: session, taskId: null, plan: null });
    const want = referenceExtract({ sessionId: session, taskId: null, events, plan: null }).checkpoint;
    expect(cp.decisions).toEqual(
      want.decisions.slice(-200).map((d) => ({ ...d, replaces: d.replaces.slice(-200) })),
    );
    expect(cp.files).toEqual(
      want.files.slice(-200).map((f) => ({ ...f, checkpointEntryIds: f.checkpointEntryIds.slice(-200) })),
    );
    expect(cp.openBlockers).toEqual(want.openBlockers.slice(-200));
    expect(cp.latestInstruction).toEqual(want.latestInstruction);
    expect(cp.eventCount).toBe(want.eventCount);
  });

  it('is refused when it does not read back, is of another format or of other limits', () => {
    const fold = foldEvents(initialFold(), longLog(100));
    const json = foldToJson(fold);
    expect(foldFromJson(json)).toEqual(fold);
    expect(foldFromJson(json.slice(0, -1))).toBeNull();
    expect(foldFromJson(json.replace(`"format":${FOLD_FORMAT}`, '"format":99'))).toBeNull();
    // A state of the format before `madeAt` (format 2) is folded again, not read with every file shown-only.
    expect(foldFromJson(json.replace(`"format":${FOLD_FORMAT}`, '"format":2'))).toBeNull();
    expect(
      foldFromJson(json.replace('"decisions":[{"eventId":', '"decisions":[{"eventId":"x","was":')),
    ).toBeNull();
    expect(foldFromJson(json, { maxItems: 7 })).toBeNull();
    expect(foldFromJson('null')).toBeNull();
  });
});
