import { describe, expect, it } from 'vitest';
import { QUIET_MS, quietSince } from '../../src/ui/follow-view';

const call = { tool: 'Bash', what: 'pytest -x', since: 1_000 };

describe('the live card: a call waiting in a transcript that stopped changing', () => {
  it('says since when the transcript is quiet once nothing was written for five minutes up to the last look', () => {
    const modified = Date.UTC(2026, 11, 5, 9, 0, 0);
    expect(quietSince({ waiting: [call], modified }, modified + QUIET_MS + 1)).toBe(modified);
    // Written within the five minutes: the agent is running the call, as far as anyone can tell.
    expect(quietSince({ waiting: [call], modified }, modified + QUIET_MS)).toBeNull();
    // No call waits: a quiet transcript is an agent waiting for its person, not one stopped mid-call.
    expect(quietSince({ waiting: [], modified }, modified + 10 * QUIET_MS)).toBeNull();
    // Never looked at: nothing to say.
    expect(quietSince({ waiting: [call], modified }, null)).toBeNull();
  });
});
