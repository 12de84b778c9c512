/**
 * The resume prompt's two forms (issue 28): `any-agent` (the default) is for pasting into any agent — no tool
 * name, no id or file of this brain, no line over 400 characters, a long task bounded with where the rest is;
 * `brain-tools` keeps the tools and ids a model with brainTools uses. Over every format's fixture.
 */
import { describe, expect, it } from 'vitest';
import { brainToolNames, maxPlainLineChars, resumePrompt, resumePromptFrom } from '../../src/lib/index';
import { memoryBrain } from './engine-helpers';
import { transcriptCases } from './transcript-cases';

const internal = ['agent.db', 'SESSION.jsonl', 'planStepId', 'blockerId', 'questionId', 'checkpoint entries'];

describe('resumePrompt for any agent', () => {
  it.each(transcriptCases())(
    '%s: no tool name, no bookkeeping, no line over 400 characters',
    async (_, files) => {
      const { api, database } = await memoryBrain();
      try {
        const [session] = (await api.importTranscript({ files })).sessions;
        const plain = await resumePrompt(api, session!.sessionId);
        expect(plain).toBe(await resumePrompt(api, session!.sessionId, { for: 'any-agent' }));
        for (const name of brainToolNames) expect(plain).not.toContain(name);
        for (const word of internal) expect(plain).not.toContain(word);
        const longest = Math.max(...plain.split('\n').map((l) => l.length));
        expect(longest).toBeLessThanOrEqual(maxPlainLineChars);
        expect(plain).toMatch(/^# Picking up where an agent stopped/);
        expect(plain).toContain('**Goal:**');

        const tools = await resumePrompt(api, session!.sessionId, { for: 'brain-tools' });
        expect(tools).toMatch(new RegExp(`^# Resuming session ${session!.sessionId}\\b`));
        expect(tools).toContain('search_history');
      } finally {
        await database.close();
      }
    },
  );

  it('tells a run handed over in the past tense: no check "recorded yet"', async () => {
    const { api, database } = await memoryBrain();
    try {
      const [, files] = transcriptCases().find(([name]) => name === 'swe-agent')!;
      const [session] = (await api.importTranscript({ files })).sessions;
      const point = await api.resumePoint(session!.sessionId);
      const none = { ...point, validationsDone: [], checkpoint: { ...point.checkpoint, validations: [] } };
      expect(resumePromptFrom(none)).toContain('No checks were recorded.');
      expect(resumePromptFrom(none)).not.toContain('recorded yet');
      // Control: a live session handed to a model with the brain's tools is still going.
      const live = {
        ...none,
        firstUnfinishedAction: { ...none.firstUnfinishedAction, kind: 'start_step' as const },
      };
      expect(resumePromptFrom(live, { for: 'brain-tools' })).toContain('No checks recorded yet.');
    } finally {
      await database.close();
    }
  });

  it('bounds a 4,000-character task, keeps its paragraphs, drops template tags and says where the rest is', async () => {
    const { api, database } = await memoryBrain();
    try {
      const [, files] = transcriptCases().find(([name]) => name === 'swe-agent')!;
      const [session] = (await api.importTranscript({ files })).sessions;
      const point = await api.resumePoint(session!.sessionId);
      const paragraph = 'The JSON provider sorts keys although SORT_KEYS is off. '.repeat(12).trim();
      const goal = `<pr_description>\n${Array.from({ length: 6 }, () => paragraph).join('\n\n')}\n</pr_description>`;
      expect(goal.length).toBeGreaterThan(4_000);
      const plain = resumePromptFrom({ ...point, goal });
      expect(plain).not.toContain('<pr_description>');
      expect(plain).toMatch(
        /\(\d+ more characters in the original agent's transcript \(its first message\)\.\)/,
      );
      expect(Math.max(...plain.split('\n').map((l) => l.length))).toBeLessThanOrEqual(maxPlainLineChars);
      expect(plain.length).toBeLessThan(goal.length + 2_000);
    } finally {
      await database.close();
    }
  });
});
