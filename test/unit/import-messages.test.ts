/**
 * The messages of an imported conversation (issue 28): the person's instructions and the agent's replies (not its
 * reasoning) become the main task's messages, roles `user` / `assistant`, each at the time of its own record —
 * never the next record's —, once (a re-import adds none), bounded like other texts. A table over every format's
 * fixture, against the ground truth its generator wrote (`truth.messages`), never a parser's output.
 */
import { describe, expect, it } from 'vitest';
import type { TranscriptFileInput } from '../../src/core/api';
import { memoryBrain } from './engine-helpers';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { generateCodexSession } from '../fixtures/transcripts/codex';
import { generateGeminiChat, generateGeminiLegacyChat } from '../fixtures/transcripts/gemini';
import { generateClineTask, generateRooTask } from '../fixtures/transcripts/cline';
import { generateOpenHandsConversation, generateOpenHandsV0Session } from '../fixtures/transcripts/openhands';
import {
  generateMiniSweAgentTrajectory,
  generateSweAgentTrajectory,
} from '../fixtures/transcripts/swe-agent';
import { conversation, taskFolder, text } from './transcript-cases';
import type { TruthMessage } from '../fixtures/transcripts/claude-code-turns';

interface Case {
  readonly files: TranscriptFileInput[];
  readonly messages: readonly TruthMessage[];
}

function cases(): [string, Case][] {
  const claude = generateClaudeCodeSession();
  const codex = generateCodexSession();
  const gemini = generateGeminiChat();
  const legacy = generateGeminiLegacyChat();
  const cline = generateClineTask();
  const roo = generateRooTask();
  const openhands = generateOpenHandsConversation();
  const openhandsV0 = generateOpenHandsV0Session();
  const swe = generateSweAgentTrajectory();
  const mini = generateMiniSweAgentTrajectory();
  const geminiName = 'chats/session-2026-11-20T09-00-5e8c1f0a';
  return [
    [
      'claude-code',
      {
        files: [claude.main, claude.subagent].map((f) => ({ name: f.name, data: f.bytes })),
        messages: claude.truth.messages,
      },
    ],
    ['codex', { files: [{ name: codex.main.name, data: codex.main.bytes }], messages: codex.truth.messages }],
    [
      'gemini-jsonl',
      { files: [{ name: `${geminiName}.jsonl`, data: text(gemini.text) }], messages: gemini.truth.messages },
    ],
    [
      'gemini-json',
      { files: [{ name: `${geminiName}.json`, data: text(legacy.text) }], messages: legacy.truth.messages },
    ],
    ['cline', { files: taskFolder(cline.taskId, cline.files), messages: cline.truth.messages }],
    ['roo', { files: taskFolder(roo.taskId, roo.files), messages: roo.truth.messages }],
    [
      'openhands',
      {
        files: conversation(openhands.conversationId, openhands.files),
        messages: openhands.truth.messages,
      },
    ],
    [
      'openhands-v0',
      {
        files: conversation(openhandsV0.conversationId, openhandsV0.files),
        messages: openhandsV0.truth.messages,
      },
    ],
    ['swe-agent', { files: [{ name: swe.name, data: text(swe.text) }], messages: swe.truth.messages }],
    [
      'mini-swe-agent',
      { files: [{ name: mini.name, data: text(mini.text) }], messages: mini.truth.messages },
    ],
  ];
}

describe('imported conversations, as messages', () => {
  it.each(cases())('%s: each prompt and reply a message at its own time, once', async (name, c) => {
    const { api, database } = await memoryBrain();
    try {
      const [session] = (await api.importTranscript({ files: c.files })).sessions;
      const read = async () =>
        (await api.listMessages(session!.sessionId, session!.taskId)).map((m) => ({
          role: m.role,
          text: m.content,
          at: m.createdAt,
        }));
      const messages = await read();
      expect(c.messages.length).toBeGreaterThan(1);
      expect(messages.map((m) => m.role)).toEqual(c.messages.map((m) => m.role));
      expect(messages.map((m) => m.text)).toEqual(c.messages.map((m) => m.text));
      // Where the transcript gives a message its own time (a Cline reply with no ui message of its own has none).
      const timed = (list: readonly { at: number | null }[]) =>
        list.map((m, i) => (c.messages[i]!.at === null ? null : m.at));
      expect(timed(messages)).toEqual(timed(c.messages));
      const withTime = c.messages.filter((m) => m.at !== null).length;
      // A `.traj` has no times: its messages keep their order.
      if (name === 'swe-agent') expect(withTime).toBe(0);
      else expect(withTime).toBeGreaterThan(c.messages.length / 2);
      const times = messages.map((m) => m.at);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(session!.added.messages).toBe((await api.listMessages(session!.sessionId)).length);

      const again = (await api.importTranscript({ files: c.files })).sessions[0]!;
      expect(again.added.messages).toBe(0);
      expect(await read()).toEqual(messages);
    } finally {
      await database.close();
    }
  });
});

describe('a reply no call followed', () => {
  it('is also a note, at the time it was said, not the next prompt’s', async () => {
    const claude = generateClaudeCodeSession();
    const { api, database } = await memoryBrain();
    try {
      const files = [claude.main, claude.subagent].map((f) => ({ name: f.name, data: f.bytes }));
      const [session] = (await api.importTranscript({ files })).sessions;
      const said = (await api.listEvents(session!.sessionId)).filter(
        (e) => e.kind === 'note' && e.said === true && e.taskId === session!.taskId,
      );
      const replies = new Map(claude.truth.messages.map((m) => [m.text, m.at]));
      const prompts = new Set(claude.truth.messages.filter((m) => m.role === 'user').map((m) => m.at));
      const done = said.filter((e) => /^Done with turn \d+/.test(e.text));
      expect(done.length).toBeGreaterThan(20);
      for (const note of done) {
        expect(note.createdAt).toBe(replies.get(note.text));
        expect(prompts.has(note.createdAt)).toBe(false);
      }
      // Search finds the replies and prompts through their events (messages are not indexed twice).
      const search = async (q: string) =>
        (await api.searchHistory(q, { sessionId: session!.sessionId })).hits.map((h) => h.source);
      expect(await search('"Done with turn 7"')).toContain('event');
      expect(await search(`"${claude.truth.prompts[3]!.replace(/[^\w ]/g, ' ').trim()}"`)).toContain('event');
    } finally {
      await database.close();
    }
  });
});

describe('a long message', () => {
  it('is bounded like other texts, saying how much the transcript holds', async () => {
    const codex = generateCodexSession();
    const { api, database } = await memoryBrain({ limits: { maxMessageChars: 60 } });
    try {
      const files = [{ name: codex.main.name, data: codex.main.bytes }];
      const [session] = (await api.importTranscript({ files })).sessions;
      const messages = await api.listMessages(session!.sessionId, session!.taskId);
      expect(messages.length).toBe(codex.truth.messages.length);
      for (const m of messages) expect(m.content.length).toBeLessThanOrEqual(60);
      // Control: the texts were longer than the bound.
      const long = codex.truth.messages.filter((m) => m.text.length > 60).length;
      expect(long).toBeGreaterThan(3);
      expect(messages.filter((m) => m.content.includes('more characters')).length).toBe(long);
    } finally {
      await database.close();
    }
  });
});
