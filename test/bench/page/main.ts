/**
 * The benchmark page: the real engine (`openBrain`: worker, wa-sqlite, OPFS) plus the bench sections' in-page
 * halves, exposed on `globalThis.bench` for Playwright to call.
 */
import { openBrain } from '../../../src/lib/index';
import { checkpointsBench, closeCheckpointsBrain } from './checkpoints';
import { lifecycleLargeBench, lifecycleSeedBench } from './lifecycle';
import { historyBench } from './history';
import { recordEventBench } from './record-event';
import { closeLeftOpen, openToolCallsBrain, toolCallsBench } from './tool-calls';
import { importBench } from './import';
import { followBench } from './follow';

const bench = {
  openBrain,
  checkpoints: checkpointsBench,
  closeCheckpointsBrain,
  lifecycleSeed: lifecycleSeedBench,
  lifecycleLarge: lifecycleLargeBench,
  history: historyBench,
  recordEvent: recordEventBench,
  toolCalls: toolCallsBench,
  openToolCallsBrain,
  closeLeftOpen,
  importTranscripts: importBench,
  follow: followBench,
};

declare global {
  var bench: typeof import('./main').benchApi;
}

export const benchApi = bench;
globalThis.bench = bench;
