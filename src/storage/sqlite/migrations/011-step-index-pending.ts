/**
 * Tool steps indexed just behind the writes. `recordToolCall(s)` commits its steps without their search documents
 * and, in the same transaction, lowers `history_backfill.pending_from` to its first step's id: every step with an
 * id from there on may be waiting for its document (those that have one are skipped). The engine indexes them in
 * chunks when no call waits, and every reader of the index catches up first (src/engine/history/pending-steps.ts).
 * A kill loses no index work: the mark was committed with the steps. The row (what the index still has to catch
 * up on, migration 8) now goes when its three marks are spent: `steps_upto` and `docs_upto` at 0, `pending_from`
 * NULL.
 */
export default `
ALTER TABLE history_backfill ADD COLUMN pending_from INTEGER;
`;
