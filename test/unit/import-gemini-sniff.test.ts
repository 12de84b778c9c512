/**
 * Every sniffer of these importers (Gemini .jsonl / .json, Cline/Roo task files, OpenHands files, SWE-agent
 * .traj, mini-swe-agent .traj.json) against every other's input, and against Claude Code and Codex first lines:
 * 2 for its own content, 0 for the others', 1 for its own file name over content it cannot place.
 */
import { describe, expect, it } from 'vitest';
import { sniffClineTaskFile } from '../../src/core/importers/cline';
import { sniffGeminiChatJson, sniffGeminiJsonl } from '../../src/core/importers/gemini';
import { sniffOpenHandsFile } from '../../src/core/importers/openhands';
import { sniffMiniSweAgentTrajectory, sniffSweAgentTrajectory } from '../../src/core/importers/swe-agent';
import type { Sniff } from '../../src/core/importers/types';
import { generateClineTask, generateRooTask } from '../fixtures/transcripts/cline';
import { generateGeminiChat, generateGeminiLegacyChat } from '../fixtures/transcripts/gemini';
import { generateOpenHandsConversation, generateOpenHandsV0Session } from '../fixtures/transcripts/openhands';
import {
  generateMiniSweAgentTrajectory,
  generateSweAgentTrajectory,
} from '../fixtures/transcripts/swe-agent';

const head = (text: string) => text.slice(0, 64 * 1024);
const cline = generateClineTask();
const roo = generateRooTask();
const openHands = generateOpenHandsConversation();
const event = openHands.files.find((f) => f.name.includes('/events/event-00003-'));
const base = openHands.files.find((f) => f.name.endsWith('base_state.json'));
const v0 = generateOpenHandsV0Session();
const v0Event = v0.files.find((f) => f.name.endsWith('/events/5.json'));
const v0Metadata = v0.files.find((f) => f.name.endsWith('/metadata.json'));

/** name, head, and the sniffer that owns it (null: none of these). */
const inputs: [string, string, string, string | null][] = [
  [
    'gemini jsonl',
    'chats/session-2026-11-20T09-00-3b0d2fca.jsonl',
    head(generateGeminiChat().text),
    'gemini-jsonl',
  ],
  [
    'gemini json',
    'chats/session-2026-11-20T09-00-3b0d2fca.json',
    head(generateGeminiLegacyChat().text),
    'gemini-json',
  ],
  [
    'cline api history',
    `tasks/${cline.taskId}/api_conversation_history.json`,
    head(cline.files.apiConversationHistory),
    'cline',
  ],
  ['cline ui messages', `tasks/${cline.taskId}/ui_messages.json`, head(cline.files.uiMessages), 'cline'],
  [
    'cline task metadata',
    `tasks/${cline.taskId}/task_metadata.json`,
    head(cline.files.taskMetadata),
    'cline',
  ],
  [
    'roo v2 history',
    `tasks/${roo.taskId}/api_conversation_history.json`,
    head(roo.files.apiConversationHistory),
    'cline',
  ],
  ['openhands event', event?.name ?? '', head(event?.text ?? ''), 'openhands'],
  ['openhands base state', base?.name ?? '', head(base?.text ?? ''), 'openhands'],
  ['openhands v0 event', v0Event?.name ?? '', head(v0Event?.text ?? ''), 'openhands'],
  ['openhands v0 metadata', v0Metadata?.name ?? '', head(v0Metadata?.text ?? ''), 'openhands'],
  [
    'swe-agent traj',
    'trajectories/pallets__flask-5063.traj',
    head(generateSweAgentTrajectory().text),
    'swe-agent',
  ],
  [
    'mini-swe-agent traj',
    'pallets__flask-5063.traj.json',
    head(generateMiniSweAgentTrajectory().text),
    'mini',
  ],
  [
    'claude code line',
    'projects/-home-dev-app/5f0c.jsonl',
    '{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/home/dev/app","sessionId":"5f0c","version":"2.0.31","type":"user","message":{"role":"user","content":"fix it"},"uuid":"a1","timestamp":"2026-11-20T09:00:00.000Z"}\n',
    null,
  ],
  [
    'codex line',
    'sessions/2026/11/20/rollout-2026-11-20T09-00-00-5f0c.jsonl',
    '{"timestamp":"2026-11-20T09:00:00.000Z","type":"session_meta","payload":{"id":"5f0c","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/home/dev/app","originator":"codex_cli_rs","cli_version":"0.60.0"}}\n',
    null,
  ],
];

const sniffers: [string, Sniff][] = [
  ['gemini-jsonl', sniffGeminiJsonl],
  ['gemini-json', sniffGeminiChatJson],
  ['cline', sniffClineTaskFile],
  ['openhands', sniffOpenHandsFile],
  ['swe-agent', sniffSweAgentTrajectory],
  ['mini', sniffMiniSweAgentTrajectory],
];

describe('sniffers against each other', () => {
  for (const [label, name, text, owner] of inputs) {
    it(`${label}: 2 for its own sniffer only`, () => {
      const scores = Object.fromEntries(sniffers.map(([id, sniff]) => [id, sniff(name, text)]));
      const expected = Object.fromEntries(sniffers.map(([id]) => [id, id === owner ? 2 : 0]));
      expect(scores).toEqual(expected);
    });
  }

  it('a mini-swe-agent file whose config templates push its version past the head', () => {
    const doc = {
      info: {
        model_stats: { instance_cost: 0.1, api_calls: 3 },
        config: { agent: { system_template: 'x'.repeat(70_000) } },
        mini_version: '2.1.0',
      },
      messages: [],
    };
    const text = JSON.stringify(doc, null, 2).slice(0, 64 * 1024);
    expect(sniffMiniSweAgentTrajectory('run.json', text)).toBe(2);
    expect(sniffSweAgentTrajectory('run.json', text)).toBe(0);
  });

  it('a head cut mid-line still sniffs, and an own name over unplaceable content is 1', () => {
    expect(sniffGeminiJsonl('x.jsonl', generateGeminiChat().text.slice(0, 70))).toBe(2);
    expect(sniffGeminiJsonl('chats/session-2026-11-20T09-00-3b0d2fca.jsonl', '{"type":"user"}')).toBe(1);
    expect(sniffClineTaskFile('tasks/1/ui_messages.json', '{"weird": true}')).toBe(1);
    expect(sniffSweAgentTrajectory('a.traj', '{\n  "info": {}')).toBe(1);
    expect(sniffMiniSweAgentTrajectory('a.traj.json', '{\n  "foo": 1')).toBe(1);
    expect(sniffOpenHandsFile('events/event-00001-0123abcd-aaaa.json', '{}')).toBe(1);
  });
});
