/** What the live card of a followed folder concludes from a followed file (FollowPanel.svelte). */
import type { FollowedFile } from '../lib/index';

/** A transcript unchanged this long while a call waits: the agent may have stopped mid-call. */
export const QUIET_MS = 5 * 60_000;

/**
 * When the transcript last changed, if a call still waits for its result and nothing was written for `QUIET_MS`
 * up to the folder's last look — the agent may have stopped mid-call — else null (it is running the call, as far
 * as anyone can tell).
 */
export function quietSince(
  file: Pick<FollowedFile, 'waiting' | 'modified'>,
  lastLookAt: number | null,
): number | null {
  if (file.waiting.length === 0 || lastLookAt === null) return null;
  return lastLookAt - file.modified > QUIET_MS ? file.modified : null;
}
