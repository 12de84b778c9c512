/**
 * Issue 14's "Done when" on three generated sessions in real agents' shapes (test/fixtures/agent-sessions: a
 * bash-only SWE-agent run, a Claude Code session, a Codex session), replayed through the real engine in Node
 * without kills — the fast twin of test/browser/tool-calls-replay.test.ts. Checked at every call: nothing lost or
 * duplicated, the next action names the todo item / failing check / stated intention, passed checks untouched by
 * later changes are in validationsDone. At the end: files changed (recall, precision), bodies when the caller
 * captures them, every check's latest result and grouping, the distinctive terms before and after a compression,
 * the summary's size and contents. The figures are printed.
 */
import { describe, expect, it } from 'vitest';
import { agentSessions } from '../fixtures/agent-sessions/index';
import {
  bodyFigures,
  checkFigures,
  filesFigures,
  summaryFigures,
  termFigures,
} from '../fixtures/agent-sessions/final-metrics';
import { checkIdsOf, checkResumePoint } from '../fixtures/agent-sessions/metrics';
import {
  compareSteps,
  replayItems,
  replayWithRecorder,
  startReplay,
  type ReplayApi,
} from '../fixtures/agent-sessions/replay';
import { memoryBrain } from './engine-helpers';

/**
 * Engine gaps these fixtures found (see the issue-14 note), asserted exactly so that a fix shows up here: `rm -r
 * dir` records the directory as a deleted file and leaves the session's files under it as they were (created), so
 * a scratch folder is neither scratch nor gone and makes later passes stale; an apply_patch `*** Move to:` records
 * the destination but not the source as deleted.
 */
const knownGaps: Record<
  string,
  { extra: string[]; extraCaptured: string[]; stale: string; scratch: string; bodiesWithout: string[] }
> = {
  'swe-agent': { extra: [], extraCaptured: [], stale: '', scratch: '2/2', bodiesWithout: [] },
  // The gaps these fixtures found (a recursive rm of a directory; apply_patch's Move to) are fixed: none left.
  'claude-code': { extra: [], extraCaptured: [], stale: '', scratch: '1/1', bodiesWithout: [] },
  codex: { extra: [], extraCaptured: [], stale: '', scratch: '1/1', bodiesWithout: [] },
};

const precisionWithout = (figures: { precision: number; extra: string[] }, known: string[], truth: number) =>
  Math.round((1000 * truth) / (truth + figures.extra.filter((p) => !known.includes(p)).length)) / 10;

describe.each(agentSessions().map((f) => [f.name, f] as const))(
  '%s session through recordToolCall',
  (name, fixture) => {
    it('holds at every call and at the end', async () => {
      const { api } = await memoryBrain();
      const brain = api as unknown as ReplayApi;
      const ids = await startReplay(brain, fixture);
      const problems: string[] = [];
      let expectedDone = 0;
      let foundDone = 0;
      let calls = 0;
      const kinds = new Map<string, number>();
      const bareDerived = new Map();
      for (const [i, item] of fixture.items.entries()) {
        await replayItems(brain, fixture, ids, 'bare', i, i + 1, bareDerived);
        if (item.kind === 'instruction') continue;
        calls++;
        const { idsByGroup, steps } = await checkIdsOf(brain, fixture, ids);
        problems.push(...compareSteps(fixture, steps, calls));
        const point = await checkResumePoint(brain, fixture, ids, calls, idsByGroup);
        problems.push(...point.problems);
        expectedDone += point.expectedDone;
        foundDone += point.foundDone;
        kinds.set(point.next.kind, (kinds.get(point.next.kind) ?? 0) + 1);
      }
      const files = await filesFigures(brain, fixture, ids);
      const checks = await checkFigures(brain, fixture, ids);
      const termsBefore = await termFigures(brain, fixture, ids);
      const summary = await summaryFigures(brain, fixture, ids, checks.idsByGroup);
      await api.compressContext(ids.sessionId);
      const termsAfter = await termFigures(brain, fixture, ids);

      const captured = await memoryBrain();
      const capturedApi = captured.api as unknown as ReplayApi;
      const capturedIds = await startReplay(capturedApi, fixture);
      const derived = await replayWithRecorder(capturedApi, fixture, capturedIds);
      const capturedFiles = await filesFigures(capturedApi, fixture, capturedIds);
      const bodies = bodyFigures(fixture, derived);
      const bareBodies = bodyFigures(fixture, bareDerived);

      console.info(
        `${name}: ${fixture.calls.length} calls; next actions ${[...kinds].map(([k, n]) => `${k}×${n}`).join(', ')}; ` +
          `validationsDone ${foundDone}/${expectedDone} untouched passes listed; ` +
          `filesChanged recall ${files.recall} % precision ${files.precision} % (recorder: ${capturedFiles.recall} % / ${capturedFiles.precision} %), scratch marked ${files.scratch}; ` +
          `bodies via toolCallRecorder+readFile ${bodies.both}/${bodies.edits} (${bodies.share} %), from the calls alone ${bareBodies.both}/${bareBodies.edits} (${bareBodies.share} %); ` +
          `checks right ${checks.right}/${checks.total}, grouped ${checks.grouped}/${checks.total}, extra ids [${checks.extra.join(', ')}]; ` +
          `terms ${termsBefore.found}/${termsBefore.total} before, ${termsAfter.found}/${termsAfter.total} after compressContext; ` +
          `summary ${summary.chars} chars`,
      );
      expect(fixture.calls.length).toBeGreaterThanOrEqual(60);
      const gaps = knownGaps[name] as (typeof knownGaps)[string];
      const gapProblems = problems.filter((p) => gaps.stale !== '' && p.endsWith(gaps.stale));
      expect(problems.filter((p) => !gapProblems.includes(p))).toEqual([]);
      expect(gapProblems.length > 0).toBe(gaps.stale !== '');
      expect(checks.problems).toEqual([]);
      const truthFiles = fixture.truth.filesChanged.length;
      expect({ missing: files.missing, wrongChange: files.wrongChange }).toEqual({
        missing: [],
        wrongChange: [],
      });
      expect(files.extra).toEqual(gaps.extra);
      expect(precisionWithout(files, gaps.extra, truthFiles)).toBeGreaterThanOrEqual(95);
      expect(capturedFiles.missing).toEqual([]);
      expect(capturedFiles.extra).toEqual(gaps.extraCaptured);
      expect(precisionWithout(capturedFiles, gaps.extraCaptured, truthFiles)).toBeGreaterThanOrEqual(95);
      expect(files.scratch).toBe(gaps.scratch);
      expect(bodies.without).toEqual(gaps.bodiesWithout);
      expect(bodies.both / (bodies.edits - gaps.bodiesWithout.length)).toBeGreaterThanOrEqual(0.9);
      expect(termsBefore.missed).toEqual([]);
      expect(termsAfter.missed).toEqual([]);
      expect(summary.chars).toBeLessThan(16_000);
      expect({ files: summary.unnamedFiles, checks: summary.unnamedChecks }).toEqual({
        files: [],
        checks: [],
      });
    }, 120_000);
  },
);
