import { afterEach, describe, expect, it } from 'vitest';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { UpdateState, type UpdateSource } from '../../src/ui/state/app-update.svelte';
import { ArchiveState } from '../../src/ui/state/archive.svelte';
import { BrainState } from '../../src/ui/state/brain.svelte';
import { lastProjectKey } from '../../src/ui/state/project.svelte';
import {
  persistAskedKey,
  PersistenceState,
  type PersistenceApi,
} from '../../src/ui/state/persistence.svelte';
import { watch } from './ui-state-watch.svelte';

let counter = 0;
const unique = (what: string) => `${what}-${Date.now().toString(36)}-${++counter}`;
const opened: BrainState[] = [];
const stops: (() => void)[] = [];

async function openState(): Promise<BrainState> {
  const state = new BrainState({ dbName: `${unique('ui-storage')}.db`, closeOnPageHide: false });
  opened.push(state);
  await state.open();
  expect(state.status).toBe('open');
  return state;
}

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

function memoryStore() {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}

/** A browser that says "best effort" until `grant` is set, and counts the requests. */
function fakeStorage() {
  const fake = { calls: 0, grant: false, persisted: false };
  const api: PersistenceApi = {
    persist: async () => {
      fake.calls++;
      fake.persisted = fake.grant;
      return fake.grant;
    },
    persisted: async () => fake.persisted,
  };
  return { fake, api };
}

describe('persistent storage', () => {
  it('asks once by itself, at the first real write and never again in this browser; a click asks again', async () => {
    const brain = await openState();
    const store = memoryStore();
    const { fake, api } = fakeStorage();
    const persistence = new PersistenceState(brain, api, store);
    // The status bar and the storage view both start it: one watcher, stopped when both stop.
    const stopBar = persistence.start();
    const stopView = persistence.start();
    await expect.poll(() => persistence.persisted).toBe(false);
    expect(fake.calls).toBe(0);

    await brain.brain!.startSession({ title: 'first write' });
    await expect.poll(() => fake.calls).toBe(1);
    expect(store.values.get(persistAskedKey)).toMatch(/^\d+$/);
    await brain.brain!.startSession({ title: 'second write' });
    stopView();
    await brain.brain!.startSession({ title: 'third write' });

    // The next visit: already asked in this browser, so the first write does not ask.
    const again = new PersistenceState(brain, api, store);
    stops.push(again.start());
    await expect.poll(() => again.persisted).toBe(false);
    await brain.brain!.startSession({ title: 'next visit' });
    await brain.settled();
    expect(fake.calls).toBe(1);

    expect(await again.request()).toBe(false);
    expect(again.declined).toBe(true);
    fake.grant = true;
    expect(await again.request()).toBe(true);
    expect([again.persisted, again.declined, fake.calls]).toEqual([true, false, 3]);
    stopBar();
  });

  it('is unknown, and never asks, where the browser has no StorageManager', async () => {
    const brain = await openState();
    const persistence = new PersistenceState(brain, null, memoryStore());
    stops.push(persistence.start());
    await brain.brain!.startSession({ title: 'a write' });
    expect([persistence.supported, persistence.persisted, await persistence.request()]).toEqual([
      false,
      null,
      null,
    ]);
  });
});

describe('a waiting update', () => {
  function fakeWorkers(controlled: boolean) {
    const registration = Object.assign(new EventTarget(), {
      installing: null as EventTarget | null,
      waiting: null as object | null,
    });
    const source: UpdateSource = {
      ready: Promise.resolve(registration as unknown as ServiceWorkerRegistration),
      controller: controlled ? ({} as ServiceWorker) : null,
    };
    /** A new build arrives: found, installing, then installed (waiting). */
    const arrive = () => {
      const worker = new EventTarget();
      registration.installing = worker;
      registration.dispatchEvent(new Event('updatefound'));
      registration.installing = null;
      registration.waiting = {};
      worker.dispatchEvent(new Event('statechange'));
    };
    return { source, arrive };
  }

  it('shows once a new build has installed while this one controls the page', async () => {
    const { source, arrive } = fakeWorkers(true);
    const update = new UpdateState(source);
    stops.push(update.start());
    await source.ready;
    expect(update.waiting).toBe(false);
    arrive();
    expect(update.waiting).toBe(true);
  });

  it('does not show for the first install (nothing older controls the page)', async () => {
    const { source, arrive } = fakeWorkers(false);
    const update = new UpdateState(source);
    stops.push(update.start());
    await source.ready;
    arrive();
    expect(update.waiting).toBe(false);
  });
});

describe('the whole-brain archive state', () => {
  it('exports with progress, asks before importing, and after the import reopens where the files went', async () => {
    const source = await openState();
    const brain = source.brain!;
    await brain.openProject({ kind: 'opfs', name: unique('proj'), create: true });
    await brain.createAgentFolder();
    await brain.startSession({ title: 'archived' });
    const store = memoryStore();
    const archive = new ArchiveState(source, store);
    stops.push(archive.start());
    await expect.poll(() => archive.holdings?.agentFiles.length ?? 0).toBeGreaterThan(0);
    const files = archive.holdings!.agentFiles.length;

    const [phases, stopWatching] = watch(() => archive.exporting.progress?.phase);
    const exported = await archive.exportBrain();
    stopWatching();
    expect(exported?.fileName).toMatch(/-brain-\d{4}-\d{2}-\d{2}-\d{4}\.zip$/);
    expect(archive.lastExport).toMatchObject({ files });
    const zip = new Uint8Array(await exported!.blob.arrayBuffer());
    expect(JSON.parse(strFromU8(unzipSync(zip)['manifest.json']!)).files).toHaveLength(files);
    expect(phases).toContain('Preparing the download');

    // A fresh brain with no project: the confirmation names a target project; nothing happens until confirmed.
    const target = await openState();
    const importer = new ArchiveState(target, store);
    const file = new File([zip], 'my-proj-brain-2026-12-01-0905.zip', { type: 'application/zip' });
    await importer.choose(file);
    expect(importer.pending).toMatchObject({
      fileName: file.name,
      projectName: 'my-proj',
      current: { sessions: 0, project: null },
    });
    // The engine read the manifest from a copy: the bytes the import needs stay with the state.
    expect(importer.pending?.preview?.files).toHaveLength(files);
    expect(importer.pending?.refusal).toBeNull();
    expect(await target.brain!.listSessions()).toEqual([]);
    const report = await importer.confirm(unique('restored'));
    expect(importer.importing.error).toBeNull();
    expect(report?.files).toHaveLength(files);
    expect((await target.brain!.listSessions()).map((s) => s.title)).toEqual(['archived']);
    expect(JSON.parse(store.values.get(lastProjectKey)!)).toEqual({ kind: 'opfs', name: report!.project });

    // An archive the preview refuses: the reason is in the confirmation, and confirming imports nothing.
    await importer.choose(new File([zip.subarray(0, 100)], 'broken.zip'));
    expect(importer.pending?.preview).toBeNull();
    expect(importer.pending?.refusal).toMatch(
      /^This archive cannot be imported: the zip is damaged or truncated .*Nothing was changed\.$/,
    );
    expect(await importer.confirm()).toBeUndefined();
    expect(importer.importing.error).toBeNull();
    // One only the import can tell (a file that does not match its hash): the engine's reason, said plainly;
    // the pending archive is gone either way.
    const entries = unzipSync(zip);
    const [name] = Object.keys(entries).filter((path) => path.startsWith('project/'));
    entries[name!] = strToU8('tampered');
    await importer.choose(new File([zipSync(entries)], 'tampered.zip'));
    expect(importer.pending?.refusal).toBeNull();
    expect(await importer.confirm()).toBeUndefined();
    expect(importer.importing.error).toMatch(
      /^Import refused\. This archive cannot be imported: .*Nothing was changed\.$/,
    );
    expect(importer.pending).toBeNull();
    expect((await target.brain!.listSessions()).map((s) => s.title)).toEqual(['archived']);
  });
});
