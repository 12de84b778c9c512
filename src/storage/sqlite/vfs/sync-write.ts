/**
 * Writing all of `bytes` through an OPFS sync access handle. Chromium reports a full quota on a large `write()`
 * not by throwing but by returning base::File::Error as a byte count (2^32 − 8 for FILE_ERROR_NO_SPACE): that
 * becomes a `QuotaExceededError`, so every caller translates it the same way.
 */
const NO_SPACE = -8;

export function writeAllSync(handle: FileSystemSyncAccessHandle, bytes: Uint8Array, at: number): void {
  let done = 0;
  while (done < bytes.byteLength) {
    const n = handle.write(bytes.subarray(done), { at: at + done });
    if (n > bytes.byteLength - done) {
      const code = n - 2 ** 32;
      throw code === NO_SPACE
        ? new DOMException(
            'OPFS has no room for this write: the storage quota is full.',
            'QuotaExceededError',
          )
        : new Error(`OPFS write failed (file error ${code})`);
    }
    if (n <= 0) throw new Error('short write');
    done += n;
  }
}
