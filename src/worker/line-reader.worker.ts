/// <reference lib="webworker" />
import { serveReadAhead } from '../engine/importers/read-ahead';

// The brain worker's second thread during a large import: reads, parses and packs one transcript ahead of the writer.
serveReadAhead(self as unknown as Parameters<typeof serveReadAhead>[0]);
