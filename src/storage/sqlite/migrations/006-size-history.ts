/**
 * Size history: a small table of samples of the database's size over time, for the storage view's growth chart.
 * Light data that cleanup never deletes; the engine thins it as it ages (src/core/size-history.ts: a few hundred
 * rows at most). Each row holds the figures the audit computes from pragmas and counters — pages, free pages,
 * checkpoint bodies, steps, messages and summaries — so a row costs a few dozen bytes.
 */
export default `
CREATE TABLE size_samples (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  cause TEXT NOT NULL CHECK (cause IN ('open', 'writes', 'cleanup', 'maintain', 'compact', 'import')),
  page_size INTEGER NOT NULL,
  page_count INTEGER NOT NULL,
  freelist_count INTEGER NOT NULL,
  checkpoint_bytes INTEGER NOT NULL,
  step_bytes INTEGER NOT NULL,
  light_bytes INTEGER NOT NULL
);
CREATE INDEX size_samples_by_time ON size_samples(at);
`;
