/**
 * Safe reads of parsed JSON records (plain objects of unknown shape), shared by the Codex parser's modules.
 */
export { asFields, leafText, list, num, str, timeOf, type Fields } from '../json';
/** True when the line holds only white space (without copying it, as `trim` would). */
export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return false;
  }
  return true;
}
