/** Cline and Roo Code task folders: `parseClineTask` and the file sniffer. */
export { parseClineTask, type ClineTaskFiles, type ClineTaskOptions } from './task';
export { sniffClineTaskFile } from './sniff';
export { parseToolTags } from './xml-tools';
