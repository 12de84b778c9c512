/**
 * Titles of imported sessions (issue 28): the agent's own title, else its session or instance id and the first
 * meaningful line of its task (template tags dropped, a lead-in such as "Consider the following PR description:"
 * skipped); at most 80 characters with the agent's name, cut at a word with an ellipsis, never "(N more
 * characters …)". A table over each format's fixture, and the rules on their own.
 */
import { describe, expect, it } from 'vitest';
import { firstMeaningfulLine, importedTitle, sessionTitle } from '../../src/engine/importers/naming';
import { memoryBrain } from './engine-helpers';
import { transcriptCases } from './transcript-cases';

const expected: Record<string, string> = {
  'claude-code': 'Claude Code · Ledger: reconcile imports and fix rounding',
  codex: 'Codex · Fix negative rounding in quantities',
  'gemini-jsonl': 'Gemini CLI · Fix the cart discount handling',
  'gemini-json': 'Gemini CLI · 3ce3157c · Turn 0: make the vat handling in the cart correct.',
  cline: 'Cline · 1795248000000 · Add a cache endpoint to the router and cover it with…',
  roo: 'Roo Code · 1795334400000 · Move the locale logic into src/db and keep the…',
  openhands: 'OpenHands · 65351979 · Turn 0: make the slug field required.',
  'openhands-v0': 'OpenHands · Paginate the post list',
  // A trajectory file has no metadata.json: its id (from the file name) and the first prompt.
  'openhands-trajectory': 'OpenHands · 8c54edec · Turn 0: the owner list should sort by date.',
  'swe-agent': 'SWE-agent · pallets__flask-5063 · `flask.json.provider` sorts keys even when…',
  'mini-swe-agent': 'mini-swe-agent · pallets__flask-5063 · `flask.json.provider` sorts keys even…',
};

describe('imported session titles, each format', () => {
  it.each(transcriptCases())('%s', async (name, files) => {
    const { api, database } = await memoryBrain();
    try {
      const [session] = (await api.importTranscript({ files })).sessions;
      expect(session!.title).toBe(expected[name]);
      expect(session!.title.length).toBeLessThanOrEqual(80);
      expect((await api.getSession(session!.sessionId)).title).toBe(session!.title);
      const [task] = await api.listTasks(session!.sessionId);
      expect(task!.title.length).toBeLessThanOrEqual(80);
      expect(task!.title).not.toMatch(/more characters|<\/?[a-z_]+>/);
    } finally {
      await database.close();
    }
  });
});

describe('the title rules', () => {
  const pr =
    'Consider the following PR description:\n<pr_description>\n`flask.json.provider` sorts keys.\n</pr_description>\nMake the minimal changes.';
  it('drops template tags and a lead-in', () => {
    expect(firstMeaningfulLine(pr)).toBe('`flask.json.provider` sorts keys.');
    expect(firstMeaningfulLine('<issue>Fix it</issue>')).toBe('Fix it');
    expect(firstMeaningfulLine('Only a lead-in:')).toBe('Only a lead-in:');
  });
  it('an agent title that is only the task’s first line is no title', () => {
    expect(
      importedTitle({ agentTitle: 'Consider the following PR description:', task: pr, id: 'x__y-1' }),
    ).toBe('x__y-1 · `flask.json.provider` sorts keys.');
    expect(importedTitle({ agentTitle: 'Fix rounding', task: pr, id: 'x' })).toBe('Fix rounding');
    expect(importedTitle({ agentTitle: null, task: null, id: 'abc' })).toBe('abc');
    expect(
      importedTitle({ agentTitle: null, task: 'Fix it', id: '0b0e7f35-3f6e-4ad6-9f39-0d5d0f1c2a11' }),
    ).toBe('0b0e7f35 · Fix it');
    // A long instance id keeps its end, which tells runs apart.
    expect(
      importedTitle({
        agentTitle: null,
        task: 'Fix it',
        id: 'organisation-with-a-long-name__repository-1017',
      }),
    ).toBe('organisation-wit…me__repository-1017 · Fix it');
  });
  it('cuts at a word with an ellipsis, at most 80 characters with the agent name', () => {
    const long = 'Review src/report.ts for rounding and run its tests; report what fails '.repeat(3);
    const title = sessionTitle('claude-code', importedTitle({ agentTitle: long, task: null, id: 'x' }));
    expect(title.length).toBeLessThanOrEqual(80);
    expect(title).toMatch(/^Claude Code · Review src\/report\.ts .*\S…$/);
    expect(title).not.toContain('more characters');
  });
});

describe('a Claude Code session file that lists other conversations’ summaries', () => {
  // Claude Code writes `summary` records at the head of a session file for earlier conversations of the project
  // (their `leafUuid` is in another file); the one that names this conversation has its leaf here.
  const sessionId = '7c1e9a2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d';
  const envelope = {
    isSidechain: false,
    userType: 'external',
    cwd: '/home/dev/app',
    sessionId,
    version: '2.1.4',
  };
  const lines = (ownSummary: boolean) =>
    [
      {
        type: 'summary',
        summary: 'Cleared conversation history',
        leafUuid: '11111111-aaaa-4bbb-8ccc-000000000001',
      },
      {
        type: 'summary',
        summary: 'Fix the flaky login test',
        leafUuid: '11111111-aaaa-4bbb-8ccc-000000000002',
      },
      {
        parentUuid: null,
        ...envelope,
        type: 'user',
        message: { role: 'user', content: 'list the tools and store them in tools.md' },
        uuid: 'u-1',
        timestamp: '2026-01-11T09:53:23.575Z',
      },
      {
        parentUuid: 'u-1',
        ...envelope,
        type: 'assistant',
        message: {
          id: 'm1',
          role: 'assistant',
          model: 'claude-opus-4-5',
          content: [{ type: 'text', text: 'Done.' }],
        },
        uuid: 'a-1',
        timestamp: '2026-01-11T09:53:30.000Z',
      },
      ...(ownSummary ? [{ type: 'summary', summary: 'Tools listed into tools.md', leafUuid: 'a-1' }] : []),
    ]
      .map((r) => JSON.stringify(r))
      .join('\n');

  async function title(ownSummary: boolean) {
    const { api, database } = await memoryBrain();
    try {
      const [session] = (
        await api.importTranscript({
          files: [{ name: `${sessionId}.jsonl`, data: new TextEncoder().encode(`${lines(ownSummary)}\n`) }],
        })
      ).sessions;
      return session!.title;
    } finally {
      await database.close();
    }
  }

  it('takes no other conversation’s summary as its title', async () => {
    expect(await title(false)).toBe('Claude Code · 7c1e9a2b · list the tools and store them in tools.md');
  });

  it('takes the summary whose leaf is one of its records (control)', async () => {
    expect(await title(true)).toBe('Claude Code · Tools listed into tools.md');
  });
});
