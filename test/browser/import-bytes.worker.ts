/**
 * Reads a File through the importer's line reader inside a dedicated worker, where imports run: the reply is the
 * line count, the characters seen and whether the last line was torn.
 */
import { readLines } from '../../src/engine/importers/lines';

self.onmessage = async (event: MessageEvent<{ file: File; passes: number }>) => {
  const { file, passes } = event.data;
  try {
    const results = [];
    for (let pass = 0; pass < passes; pass++) {
      let chars = 0;
      const { lines, torn } = await readLines(file, {
        line: (text) => {
          chars += text.length;
        },
      });
      results.push({ lines, torn, chars });
    }
    self.postMessage({ results });
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
};
