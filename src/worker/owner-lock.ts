/**
 * The Web Lock a worker holds for as long as it owns a database: one owner per database across tabs (host.ts).
 * The page that started the worker queues for the same lock (lib/index.ts): it is granted only once the worker
 * let go of it — closing, or stopped without being asked.
 */
export const ownerLockName = (dbName: string) => `agent-brain-owner:${dbName}`;

/**
 * The lock naming one opening (`OpenOptions.holder`, a token the page makes): its worker takes it before the owner
 * lock and keeps it as long, so another page can tell from `navigator.locks.query()` whose worker holds the
 * database — the page it replaces in the same tab, which let go when it was hidden (`OpenOptions.leftBy`).
 */
export const holderLockName = (dbName: string, holder: string) => `agent-brain-holder:${dbName}:${holder}`;
