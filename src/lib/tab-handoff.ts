/**
 * A reload hands the brain from one page to the next in the same tab, but stopping the old page's worker takes a
 * moment after the page is gone: the new page's worker can find the owner lock still held and would say "open in
 * another tab". So a page hidden for good notes its opening's holder token in `sessionStorage` (per tab), and the
 * next opening of the same database in the tab passes those tokens to its worker (`OpenOptions.leftBy`), which then
 * waits for that worker only to end (worker/host.ts). Another tab's worker is never recognised: `sessionStorage` is
 * the tab's own, and a duplicated tab copies it while the page is still there, before any note.
 */

/** Notes kept per database: several frames of one page may each have opened it before the tab moved on. */
const kept = 4;

const key = (dbName: string) => `agent-brain:left:${dbName}`;

function tabStorage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null; // storage blocked (e.g. a sandboxed frame): the hand-off falls back to `OpenElsewhere`
  }
}

/** Called when the page is hidden for good: this opening (`holder`) let go of `dbName`. */
export function noteLeft(dbName: string, holder: string): void {
  const storage = tabStorage();
  try {
    const notes = (storage?.getItem(key(dbName)) ?? '').split(' ').filter((note) => note !== '');
    storage?.setItem(key(dbName), [...notes, holder].slice(-kept).join(' '));
  } catch {
    // full or blocked: as above
  }
}

/** The openings of `dbName` that earlier pages of this tab let go of; the notes are used up. */
export function takeLeft(dbName: string): string[] {
  const storage = tabStorage();
  try {
    const notes = storage?.getItem(key(dbName)) ?? '';
    storage?.removeItem(key(dbName));
    return notes.split(' ').filter((note) => note !== '');
  } catch {
    return [];
  }
}
