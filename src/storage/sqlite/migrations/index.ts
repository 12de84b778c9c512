import initial from './001-initial';
import checkpoints from './002-checkpoints';
import cleanup from './003-cleanup';
import events from './004-events';
import slimTombstones from './005-slim-tombstones';
import sizeHistory from './006-size-history';
import compressionState from './007-compression-state';
import stepSearch from './008-step-search';
import toolContext from './009-tool-context';
import imports from './010-imports';
import stepIndexPending from './011-step-index-pending';
import patchCheckpoints from './012-patch-checkpoints';
import projectFolders from './013-project-folders';
import followedFolders from './014-followed-folders';
import compactHistory from './015-compact-history';
import slimSearchDocs from './016-slim-search-docs';

export interface Migration {
  readonly id: number;
  readonly name: string;
  readonly sql: string;
}

/** Every migration this build knows, in order. Append only: a released migration never changes. */
export const migrations: readonly Migration[] = [
  { id: 1, name: 'initial', sql: initial },
  { id: 2, name: 'checkpoints', sql: checkpoints },
  { id: 3, name: 'cleanup', sql: cleanup },
  { id: 4, name: 'events', sql: events },
  { id: 5, name: 'slim-tombstones', sql: slimTombstones },
  { id: 6, name: 'size-history', sql: sizeHistory },
  { id: 7, name: 'compression-state', sql: compressionState },
  { id: 8, name: 'step-search', sql: stepSearch },
  { id: 9, name: 'tool-context', sql: toolContext },
  { id: 10, name: 'imports', sql: imports },
  { id: 11, name: 'step-index-pending', sql: stepIndexPending },
  { id: 12, name: 'patch-checkpoints', sql: patchCheckpoints },
  { id: 13, name: 'project-folders', sql: projectFolders },
  { id: 14, name: 'followed-folders', sql: followedFolders },
  { id: 15, name: 'compact-history', sql: compactHistory },
  { id: 16, name: 'slim-search-docs', sql: slimSearchDocs },
];
