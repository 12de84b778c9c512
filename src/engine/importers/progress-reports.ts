/**
 * An import's progress: throttled reports to the caller's listener (at most every 100 ms, and at the end), each
 * awaited, so the listener's answer can stop the import — `'cancel'` throws `Cancelled` inside the transaction,
 * which then leaves nothing.
 */
import type { ImportProgress, ImportProgressListener } from '../../core/api/importers';
import { BrainError } from '../../core/errors';
import { createProgressThrottle } from '../../core/progress-reports';

const reportEveryMs = 100;

export function createImportReporter(
  listener: ImportProgressListener | undefined,
  bytesTotal: number,
  now: () => number,
) {
  const throttle = createProgressThrottle(now, reportEveryMs);
  const state = { file: '', base: 0, bytesDone: 0, sessions: 0, instructions: 0, toolCalls: 0 };
  const done = { instructions: 0, toolCalls: 0 };
  const snapshot = (phase: ImportProgress['phase']): ImportProgress => ({
    phase,
    file: state.file,
    bytesDone: state.bytesDone,
    bytesTotal,
    sessions: state.sessions,
    instructions: state.instructions,
    toolCalls: state.toolCalls,
  });

  async function send(phase: ImportProgress['phase']) {
    if (!listener) return;
    const answer = await listener(snapshot(phase));
    if (answer === 'cancel' && phase !== 'done')
      throw new BrainError('Cancelled', 'The import was cancelled: nothing of it was kept.');
  }

  return {
    state,
    /** A new unit starts (always reported): its bytes count from what the earlier ones read. */
    async startUnit(file: string) {
      state.file = file;
      state.base = state.bytesDone;
      await send('reading');
    },
    async bytes(doneInUnit: number) {
      state.bytesDone = state.base + doneInUnit;
      if (throttle.due('reading')) await send('reading');
    },
    /** Between items, with the unit's counts so far. */
    async tick(unit: { readonly instructions: number; readonly toolCalls: number }) {
      state.instructions = done.instructions + unit.instructions;
      state.toolCalls = done.toolCalls + unit.toolCalls;
      if (throttle.due('reading')) await send('reading');
    },
    endUnit(unit: { readonly instructions: number; readonly toolCalls: number }, newSession: boolean) {
      done.instructions += unit.instructions;
      done.toolCalls += unit.toolCalls;
      state.instructions = done.instructions;
      state.toolCalls = done.toolCalls;
      if (newSession) state.sessions++;
    },
    /** Always sent (the first report, and after the commit: `done`). */
    async force(phase: ImportProgress['phase']) {
      await send(phase);
    },
  };
}
