/**
 * The 100-byte header every SQLite database file starts with (https://www.sqlite.org/fileformat.html), checked
 * against the size a zip declares for the file: enough to refuse an archive's agent.db from its first inflated
 * bytes, before its declared size is allocated or the rest of it inflated.
 */
import { headerPageSize } from '../../core/progress-reports';

export const sqliteHeaderBytes = 100;
const MAGIC = 'SQLite format 3\0';

/**
 * Why `head` (the first bytes of a file of `size` bytes) is not the header of an SQLite database of that size,
 * or null when it is: the magic string, a page size SQLite writes (a power of two, 512 to 65536), and a page
 * count that is valid (its version-valid-for number matches the change counter, as every SQLite since 3.7.0
 * writes it) and, times the page size, the file's size.
 */
export function sqliteHeaderProblem(head: Uint8Array, size: number): string | null {
  if (head.byteLength < sqliteHeaderBytes || String.fromCharCode(...head.subarray(0, 16)) !== MAGIC)
    return 'it does not start with the SQLite header';
  const pageSize = headerPageSize(head);
  const view = new DataView(head.buffer, head.byteOffset, sqliteHeaderBytes);
  if (pageSize === null)
    return `its header gives the page size ${view.getUint16(16)}, which SQLite never uses`;
  const pageCount = view.getUint32(28);
  if (pageCount === 0 || view.getUint32(92) !== view.getUint32(24))
    return 'its header does not give the number of pages';
  if (pageCount * pageSize !== size) {
    return `its header says ${pageCount} pages of ${pageSize} bytes (${pageCount * pageSize} bytes), the zip says ${size}`;
  }
  return null;
}
