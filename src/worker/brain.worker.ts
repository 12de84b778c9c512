/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { installErrorTransfer } from './error-transfer';
import { createWorkerHost } from './host';

// The thin entry: the host builds the engine on OPFS once a caller opens a brain.
installErrorTransfer();
Comlink.expose(createWorkerHost());
