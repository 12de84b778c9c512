/** One import input per format's fixture (test/fixtures/transcripts), for tests that run over every format. */
import type { TranscriptFileInput } from '../../src/core/api';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { generateClineTask, generateRooTask } from '../fixtures/transcripts/cline';
import { generateCodexSession } from '../fixtures/transcripts/codex';
import { generateGeminiChat, generateGeminiLegacyChat } from '../fixtures/transcripts/gemini';
import {
  generateOpenHandsConversation,
  generateOpenHandsTrajectory,
  generateOpenHandsV0Session,
} from '../fixtures/transcripts/openhands';
import {
  generateMiniSweAgentTrajectory,
  generateSweAgentTrajectory,
} from '../fixtures/transcripts/swe-agent';

export const text = (t: string) => new TextEncoder().encode(t);

/** A Cline / Roo task folder's three files, as a picked folder gives them. */
export const taskFolder = (
  id: string,
  f: { apiConversationHistory: string; uiMessages: string; taskMetadata: string },
): TranscriptFileInput[] => [
  { name: `tasks/${id}/api_conversation_history.json`, data: text(f.apiConversationHistory) },
  { name: `tasks/${id}/ui_messages.json`, data: text(f.uiMessages) },
  { name: `tasks/${id}/task_metadata.json`, data: text(f.taskMetadata) },
];

/** An OpenHands conversation folder's files. */
export const conversation = (id: string, files: { name: string; text: string }[]): TranscriptFileInput[] =>
  files.map((f) => ({ name: `conversations/${id}/${f.name}`, data: text(f.text) }));

export function transcriptCases(): [string, TranscriptFileInput[]][] {
  const claude = generateClaudeCodeSession();
  const codex = generateCodexSession();
  const cline = generateClineTask();
  const roo = generateRooTask();
  const openhands = generateOpenHandsConversation();
  const openhandsV0 = generateOpenHandsV0Session();
  const trajectory = generateOpenHandsTrajectory();
  const swe = generateSweAgentTrajectory();
  const mini = generateMiniSweAgentTrajectory();
  return [
    ['claude-code', [claude.main, claude.subagent].map((f) => ({ name: f.name, data: f.bytes }))],
    ['codex', [{ name: codex.main.name, data: codex.main.bytes }]],
    [
      'gemini-jsonl',
      [{ name: 'chats/session-2026-11-20T09-00-5e8c1f0a.jsonl', data: text(generateGeminiChat().text) }],
    ],
    [
      'gemini-json',
      [{ name: 'chats/session-2026-11-20T09-00-5e8c1f0a.json', data: text(generateGeminiLegacyChat().text) }],
    ],
    ['cline', taskFolder(cline.taskId, cline.files)],
    ['roo', taskFolder(roo.taskId, roo.files)],
    ['openhands', conversation(openhands.conversationId, openhands.files)],
    ['openhands-v0', conversation(openhandsV0.conversationId, openhandsV0.files)],
    ['openhands-trajectory', [{ name: trajectory.name, data: text(trajectory.text) }]],
    ['swe-agent', [{ name: swe.name, data: text(swe.text) }]],
    ['mini-swe-agent', [{ name: mini.name, data: text(mini.text) }]],
  ];
}
