import { describe, expect, it } from 'vitest';
import { isBrainError } from '../../src/core/errors';
import {
  isAgentPath,
  joinProjectPath,
  normaliseProjectDir,
  normaliseProjectPath,
  parentDir,
  pathSegments,
} from '../../src/core/paths';

function refusal(input: unknown): string {
  try {
    normaliseProjectPath(input);
  } catch (error) {
    if (isBrainError(error, 'PathEscapes')) return error.message;
    throw error;
  }
  throw new Error(`"${String(input)}" was accepted`);
}

describe('project paths', () => {
  it('normalises harmless spellings to one form', () => {
    expect(normaliseProjectPath('.agent/MEMORY.md')).toBe('.agent/MEMORY.md');
    expect(normaliseProjectPath('./.agent/./plan/PLAN.md')).toBe('.agent/plan/PLAN.md');
    expect(normaliseProjectPath('src/')).toBe('src');
    expect(normaliseProjectPath('ünïcode/файл.md')).toBe('ünïcode/файл.md');
    expect(normaliseProjectDir('')).toBe('');
    expect(normaliseProjectDir('.')).toBe('');
    expect(normaliseProjectDir('./')).toBe('');
  });

  it.each([
    ['..', '".." leaves'],
    ['../secrets', '".." leaves'],
    ['.agent/../../etc/passwd', '".." leaves'],
    ['a/b/..', '".." leaves'],
    ['/etc/passwd', 'absolute'],
    ['//server/share', 'absolute'],
    ['C:/Windows', 'drive letter'],
    ['c:file', 'drive letter'],
    ['~/notes', 'home-directory'],
    ['.agent\\MEMORY.md', 'backslashes'],
    ['..\\..\\x', 'backslashes'],
    ['a\u2215b', 'look-alike'],
    ['a\uFF0Fb', 'look-alike'],
    ['a\u0000b', 'control'],
    ['a\nb', 'control'],
    ['a//b', 'empty segment'],
    ['...', 'not a file name'],
    ['', 'project folder itself'],
    ['.', 'project folder itself'],
  ])('refuses %j with PathEscapes (%s)', (input, reason) => {
    expect(refusal(input)).toContain(reason);
  });

  it('never puts raw control characters into the message', () => {
    expect(refusal('a\u0000b')).toContain('\\u0000');
    expect(refusal('a\u0000b')).not.toContain('\u0000');
  });

  it('refuses over-long paths and names, and non-strings as bad arguments', () => {
    expect(refusal('a/'.repeat(600) + 'b')).toContain('longer than');
    expect(refusal('x'.repeat(256))).toContain('longer than 255');
    expect(() => normaliseProjectPath(42)).toThrow(expect.objectContaining({ code: 'InvalidArgument' }));
  });

  it('joins, splits and classifies', () => {
    expect(joinProjectPath('.agent', 'skills/x/SKILL.md')).toBe('.agent/skills/x/SKILL.md');
    expect(() => joinProjectPath('.agent', '../../x')).toThrow(
      expect.objectContaining({ code: 'PathEscapes' }),
    );
    expect(pathSegments(normaliseProjectPath('a/b/c'))).toEqual(['a', 'b', 'c']);
    expect(parentDir(normaliseProjectPath('a/b/c'))).toBe('a/b');
    expect(parentDir(normaliseProjectPath('c'))).toBe('');
    expect(isAgentPath(normaliseProjectPath('.agent/MEMORY.md'))).toBe(true);
    expect(isAgentPath(normaliseProjectPath('.agentx/MEMORY.md'))).toBe(false);
  });
});
