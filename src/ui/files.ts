/**
 * Reads a picked file in chunks so the page can show how far it is and stays responsive (one big
 * `arrayBuffer()` gives no progress). The chunks go into one preallocated buffer: no second copy at the end.
 */
export async function readFileWithProgress(
  file: Blob,
  onProgress: (done: number, total: number) => void,
): Promise<Uint8Array> {
  const total = file.size;
  const bytes = new Uint8Array(total);
  const reader = file.stream().getReader();
  let done = 0;
  let lastReport = 0;
  onProgress(0, total);
  for (;;) {
    const { value, done: finished } = await reader.read();
    if (finished) break;
    if (done + value.byteLength > total)
      throw new Error('The file grew while it was being read; pick it again.');
    bytes.set(value, done);
    done += value.byteLength;
    // A few hundred updates at most, whatever the file size.
    if (done - lastReport >= total / 200 || done === total) {
      lastReport = done;
      onProgress(done, total);
    }
  }
  if (done !== total) throw new Error('The file shrank while it was being read; pick it again.');
  return bytes;
}

/** Offers `bytes` as a download named `name` (the browser's own save flow). */
export function downloadBytes(
  bytes: Uint8Array<ArrayBuffer> | Blob,
  name: string,
  type = 'application/octet-stream',
): void {
  const blob = bytes instanceof Blob ? bytes : new Blob([bytes], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by now; keep the URL a little for slow disks.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** `agent-2026-11-30-1405.db`: sortable, and never the live file's own name. */
export function exportFileName(dbName: string, atMs: number): string {
  const at = new Date(atMs);
  const base = dbName.replace(/\.db$/i, '');
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}`;
  return `${base}-${stamp}.db`;
}
