/**
 * The format registry detects each fixture's format from its content (a misleading name does not decide), and
 * claims nothing that is not a transcript.
 */
import { describe, expect, it } from 'vitest';
import { detectFormat, knownFormatLabels, transcriptFormats } from '../../src/core/importers/registry';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { generateClineTask } from '../fixtures/transcripts/cline';
import { generateCodexSession } from '../fixtures/transcripts/codex';
import { generateGeminiChat, generateGeminiLegacyChat } from '../fixtures/transcripts/gemini';
import {
  generateOpenHandsConversation,
  generateOpenHandsTrajectory,
} from '../fixtures/transcripts/openhands';
import {
  generateMiniSweAgentTrajectory,
  generateSweAgentTrajectory,
} from '../fixtures/transcripts/swe-agent';

const head = (text: string | Uint8Array) =>
  (typeof text === 'string' ? text : new TextDecoder().decode(text)).slice(0, 64 * 1024);

describe('detectFormat', () => {
  const cases: [string, string, string][] = [
    ['claude-code', 'session.jsonl', head(generateClaudeCodeSession().main.bytes)],
    ['codex', 'session.jsonl', head(generateCodexSession().main.bytes)],
    ['gemini-jsonl', 'chat.jsonl', head(generateGeminiChat().text)],
    ['gemini-json', 'chat.json', head(generateGeminiLegacyChat().text)],
    ['cline', 'task/api_conversation_history.json', head(generateClineTask().files.apiConversationHistory)],
    ['cline', 'task/ui_messages.json', head(generateClineTask().files.uiMessages)],
    ['swe-agent', 'x.json', head(generateSweAgentTrajectory().text)],
    ['mini-swe-agent', 'x.json', head(generateMiniSweAgentTrajectory().text)],
  ];
  const conversation = generateOpenHandsConversation();
  const event = conversation.files.find((f) => f.name.includes('events/'))!;
  cases.push(['openhands', `conv/${event.name}`, head(event.text)]);
  const trajectory = generateOpenHandsTrajectory();
  cases.push(['openhands-trajectory', trajectory.name, head(trajectory.text)]);

  it.each(cases)('%s from %s', (id, name, text) => {
    expect(detectFormat(name, text)?.id).toBe(id);
  });

  it('the content decides over a misleading name', () => {
    const codex = head(generateCodexSession().main.bytes);
    expect(detectFormat('5e8c1f0a-7b3d-4c2e-9a61-2f4b8d0c6e17.jsonl', codex)?.id).toBe('codex');
  });

  it('claims no file that is not a transcript', () => {
    expect(detectFormat('notes.md', '# Notes\n\nnothing here\n')).toBeNull();
    expect(detectFormat('data.jsonl', '{"a":1}\n{"b":2}\n')).toBeNull();
    expect(detectFormat('package.json', '{\n  "name": "x"\n}\n')).toBeNull();
  });

  it('names every format', () => {
    expect(knownFormatLabels).toHaveLength(transcriptFormats.length);
    expect(new Set(transcriptFormats.map((f) => f.id)).size).toBe(transcriptFormats.length);
  });
});
