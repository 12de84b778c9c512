/**
 * Version tokens: `v1:<size>:<lastModified>:<hash>`, where the hash is the first 16 bytes of SHA-256 over the
 * content (`-` for a file too large to hash). A token is compared cheaply first (size, time), and by hash only
 * when those agree — which is what catches an edit in the same millisecond that kept the size.
 */
import type { FileVersion } from './folder';

export interface ParsedVersion {
  readonly size: number;
  readonly lastModified: number;
  readonly hash: string | null;
}

export async function contentHash(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (let i = 0; i < 16; i++) hex += (digest[i] as number).toString(16).padStart(2, '0');
  return hex;
}

export function versionToken(size: number, lastModified: number, hash: string | null): FileVersion {
  return `v1:${size}:${lastModified}:${hash ?? '-'}`;
}

export function parseVersion(token: unknown): ParsedVersion | null {
  if (typeof token !== 'string') return null;
  const m = /^v1:(\d+):(-?\d+):([0-9a-f]{32}|-)$/.exec(token);
  if (!m) return null;
  return { size: Number(m[1]), lastModified: Number(m[2]), hash: m[3] === '-' ? null : (m[3] as string) };
}
