import { isBrainError, type ImportReport } from '../../lib/index';
import { messageOf } from '../errors';
import { bytesToBlob, exportFileName, readFileWithProgress } from '../files';
import { refusalReason } from '../refusal';
import { moveToWorker } from '../transfer';
import type { BrainState } from './brain.svelte';
import { Operation } from './operation.svelte';

/** Refusals of a file that is not a usable agent.db: said plainly, with the reassurance that nothing changed. */
function importFailure(error: unknown): string {
  if (
    isBrainError(error, 'NotSqlite') ||
    isBrainError(error, 'CorruptDatabase') ||
    isBrainError(error, 'NewerSchema')
  ) {
    return `This file was refused: ${refusalReason(error.message)} Your current database is unchanged.`;
  }
  return `The import failed: ${messageOf(error)}`;
}

/** The storage view's actions on the database file: export (download) and import (file input). */
export class StorageState {
  exporting = new Operation();
  importing = new Operation(importFailure);
  lastImport = $state.raw<(ImportReport & { readonly fileName: string }) | null>(null);
  lastExport = $state.raw<{ readonly bytes: number; readonly fileName: string } | null>(null);
  #source: BrainState;

  constructor(source: BrainState) {
    this.#source = source;
  }

  /** A consistent copy of agent.db as a Blob to download, or undefined when it failed (see `exporting.error`). */
  async exportDatabase(): Promise<{ blob: Blob; fileName: string } | undefined> {
    const brain = this.#source.brain;
    if (!brain) return undefined;
    // The engine hands the copy over in one piece, so that phase has no counts; making the download file has.
    return this.exporting.run(
      { phase: 'Copying the database', done: 0, total: null, unit: 'bytes' },
      async (report) => {
        const bytes = await brain.exportDatabase();
        const blob = await bytesToBlob(bytes, (done, total) =>
          report({ phase: 'Preparing the download', done, total, unit: 'bytes' }),
        );
        const fileName = exportFileName(brain.dbName, Date.now());
        this.lastExport = { bytes: blob.size, fileName };
        return { blob, fileName };
      },
    );
  }

  async importFile(file: File): Promise<ImportReport | undefined> {
    const brain = this.#source.brain;
    if (!brain) return undefined;
    this.lastImport = null;
    return this.importing.run(
      { phase: 'Reading the file', done: 0, total: file.size, unit: 'bytes' },
      async (report) => {
        const bytes = await readFileWithProgress(file, (done, total) =>
          report({ phase: 'Reading the file', done, total, unit: 'bytes' }),
        );
        report({ phase: 'Checking and replacing the database', done: 0, total: null, unit: 'bytes' });
        await this.#source.stopWriters();
        const result = await brain.importDatabase(moveToWorker(bytes));
        this.lastImport = { ...result, fileName: file.name };
        return result;
      },
    );
  }
}
