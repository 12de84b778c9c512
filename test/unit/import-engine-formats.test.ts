/**
 * importTranscript on each document and folder format's fixture (test/fixtures/transcripts): the format found from
 * the content, one session marked with its agent, every prompt an instruction, every tool call a step, every check
 * counted — against the generators' ground truth.
 */
import { describe, expect, it } from 'vitest';
import type { TranscriptFileInput } from '../../src/core/api';
import { generateClineTask, generateRooTask } from '../fixtures/transcripts/cline';
import {
  generateGeminiChat,
  generateGeminiLegacyChat,
  type TranscriptTruth,
} from '../fixtures/transcripts/gemini';
import { generateOpenHandsConversation, generateOpenHandsV0Session } from '../fixtures/transcripts/openhands';
import {
  generateMiniSweAgentTrajectory,
  generateSweAgentTrajectory,
} from '../fixtures/transcripts/swe-agent';
import { memoryBrain } from './engine-helpers';
import { conversation, taskFolder, text } from './transcript-cases';

const cline = generateClineTask();
const roo = generateRooTask();
const openhands = generateOpenHandsConversation();
const openhandsV0 = generateOpenHandsV0Session();
const swe = generateSweAgentTrajectory();
const mini = generateMiniSweAgentTrajectory();
const gemini = generateGeminiChat();
const geminiLegacy = generateGeminiLegacyChat();

const cases: [string, string, TranscriptFileInput[], TranscriptTruth][] = [
  [
    'gemini-cli',
    'gemini-jsonl',
    [{ name: 'chats/session-2026-11-20T09-00-5e8c1f0a.jsonl', data: text(gemini.text) }],
    gemini.truth,
  ],
  [
    'gemini-cli',
    'gemini-json',
    [{ name: 'chats/session-2026-11-20T09-00-5e8c1f0a.json', data: text(geminiLegacy.text) }],
    geminiLegacy.truth,
  ],
  ['cline', 'cline', taskFolder(cline.taskId, cline.files), cline.truth],
  ['roo', 'cline', taskFolder(roo.taskId, roo.files), roo.truth],
  ['openhands', 'openhands', conversation(openhands.conversationId, openhands.files), openhands.truth],
  ['openhands', 'openhands', conversation(openhandsV0.conversationId, openhandsV0.files), openhandsV0.truth],
  ['swe-agent', 'swe-agent', [{ name: swe.name, data: text(swe.text) }], swe.truth],
  ['mini-swe-agent', 'mini-swe-agent', [{ name: mini.name, data: text(mini.text) }], mini.truth],
];

const labels: Record<string, string> = {
  'gemini-cli': 'Gemini CLI',
  cline: 'Cline',
  roo: 'Roo Code',
  openhands: 'OpenHands',
  'swe-agent': 'SWE-agent',
  'mini-swe-agent': 'mini-swe-agent',
};

describe('importTranscript: each format', () => {
  it.each(cases)('%s (%s)', async (agent, format, files, truth) => {
    const { api } = await memoryBrain();
    const result = await api.importTranscript({ files });
    expect(result.refused).toEqual([]);
    expect(result.sessions).toHaveLength(1);
    const s = result.sessions[0]!;
    expect([s.agent, s.format]).toEqual([agent, format]);
    expect(s.title.startsWith(`${labels[agent]} · `)).toBe(true);
    const events = await api.listEvents(s.sessionId, { kinds: ['instruction'] });
    expect(events.map((e) => (e as { text: string }).text).sort()).toEqual(
      [...truth.prompts].filter((p) => p.trim() !== '').sort(),
    );
    let steps = 0;
    for (const t of await api.listTasks(s.sessionId)) steps += (await api.listSteps(t.id)).length;
    const calls = Object.values(truth.toolCalls).reduce((a, b) => a + b, 0);
    expect(steps).toBe(calls);
    expect(s.added.toolCalls).toBe(calls);
    expect(s.added.checks).toBe(truth.checks.length);
    expect(s.added.compactions).toBe(truth.compactions);
    // Again: nothing added.
    const again = (await api.importTranscript({ files })).sessions[0]!;
    expect([again.sessionId, again.added.toolCalls, again.added.instructions]).toEqual([s.sessionId, 0, 0]);
  });
});
