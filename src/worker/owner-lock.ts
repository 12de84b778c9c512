/**
 * The Web Lock a worker holds for as long as it owns a database: one owner per database across tabs (host.ts).
 * The page that started the worker queues for the same lock (lib/index.ts): it is granted only once the worker
 * let go of it — closing, or stopped without being asked.
 */
export const ownerLockName = (dbName: string) => `agent-brain-owner:${dbName}`;
