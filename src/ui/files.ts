/**
 * Reads a picked file 1 MiB at a time, so the page can show how far it is and stays responsive: one big
 * `arrayBuffer()` gives no progress, and `file.stream()` was measured to block the page for ~100 ms at a time
 * on a 100 MB file (its chunk copies land on the main thread) where sliced reads did not. The pieces go into one
 * preallocated buffer: no second copy at the end.
 */
export async function readFileWithProgress(
  file: Blob,
  onProgress: (done: number, total: number) => void,
  pieceBytes = 1024 * 1024,
): Promise<Uint8Array<ArrayBuffer>> {
  const total = file.size;
  const bytes = new Uint8Array(total);
  onProgress(0, total);
  for (let at = 0; at < total; at += pieceBytes) {
    const piece = new Uint8Array(await file.slice(at, Math.min(total, at + pieceBytes)).arrayBuffer());
    if (piece.byteLength !== Math.min(pieceBytes, total - at)) {
      throw new Error('The file changed while it was being read; pick it again.');
    }
    bytes.set(piece, at);
    onProgress(at + piece.byteLength, total);
  }
  return bytes;
}

const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * A Blob of `bytes`, built 1 MiB at a time with the page free in between: `new Blob([100 MB])` copies all of
 * it in one go (a long task). A Blob part that is a Blob is referenced, not copied, so each step copies one piece.
 */
export async function bytesToBlob(
  bytes: Uint8Array,
  onProgress: (done: number, total: number) => void,
  pieceBytes = 1024 * 1024,
): Promise<Blob> {
  let blob = new Blob([]);
  onProgress(0, bytes.byteLength);
  for (let at = 0; at < bytes.byteLength; at += pieceBytes) {
    const piece = bytes.subarray(at, Math.min(bytes.byteLength, at + pieceBytes));
    blob = new Blob([blob, piece as Uint8Array<ArrayBuffer>]);
    onProgress(at + piece.byteLength, bytes.byteLength);
    await yieldToPage();
  }
  return blob;
}

/** Offers `blob` as a download named `name` (the browser's own save flow). */
export function downloadBlob(blob: Blob, name: string): void {
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
