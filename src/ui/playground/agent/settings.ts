/**
 * What stays in the tab's sessionStorage: the endpoint settings (URL, model, key — never handed to the brain) and
 * the run in progress, so that a reload resumes it.
 */
import type { ChatSettings } from './endpoint';
import type { Run } from './loop';

const endpointKey = 'agent-brain.playground.endpoint';
const runKey = 'agent-brain.playground.run';

export const defaultSettings: ChatSettings = { url: '', model: '', key: '', stream: true, timeoutMs: 60_000 };

function read<T>(key: string): T | null {
  try {
    const text = sessionStorage.getItem(key);
    return text === null ? null : (JSON.parse(text) as T);
  } catch {
    return null;
  }
}

export const loadSettings = (): ChatSettings => ({
  ...defaultSettings,
  ...read<Partial<ChatSettings>>(endpointKey),
});
export const saveSettings = (settings: ChatSettings) =>
  sessionStorage.setItem(endpointKey, JSON.stringify(settings));

/** The run of this tab; `running` while the loop is under way (a reload then resumes it by itself). */
export interface StoredRun extends Run {
  readonly running: boolean;
}

export const loadRun = () => read<StoredRun>(runKey);
export const saveRun = (run: StoredRun) => sessionStorage.setItem(runKey, JSON.stringify(run));
