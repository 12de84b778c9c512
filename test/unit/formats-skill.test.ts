import { describe, expect, it } from 'vitest';
import {
  createSkillText,
  parseSkill,
  setSkillField,
  skillNameProblem,
  validateSkillText,
} from '../../src/core/formats';

describe('SKILL.md', () => {
  it('creates a skill that parses back, with a blank line after the front matter', () => {
    const text = createSkillText({
      name: 'run-tests',
      description: 'Run the tests. Use after any change.',
      body: '# Run the tests\n\n1. npm test\n',
      metadata: { author: 'me' },
    });
    expect(text).toBe(
      '---\nname: run-tests\ndescription: Run the tests. Use after any change.\nmetadata:\n  author: me\n---\n\n# Run the tests\n\n1. npm test\n',
    );
    const skill = parseSkill(text, 'run-tests');
    expect(skill).toMatchObject({
      name: 'run-tests',
      metadata: { author: 'me' },
      body: '\n# Run the tests\n\n1. npm test\n',
      problems: [],
    });
  });

  it.each([
    ['a', null],
    ['pdf-processing', null],
    ['x'.repeat(64), null],
    ['', 'needs a name'],
    ['x'.repeat(65), 'at most 64'],
    ['PDF', 'lowercase'],
    ['-pdf', 'lowercase'],
    ['pdf-', 'lowercase'],
    ['pdf--x', 'lowercase'],
    ['pdf_x', 'lowercase'],
    ['pdf x', 'lowercase'],
  ])('name %j', (name, issue) => {
    const found = skillNameProblem(name);
    if (issue === null) expect(found).toBeNull();
    else expect(found).toContain(issue);
  });

  it('reports problems but still reads what it can', () => {
    expect(parseSkill('---\nname: other\ndescription: d\n---\n', 'folder').problems).toMatchObject([
      { code: 'InvalidField', severity: 'warning' },
    ]);
    expect(parseSkill('---\nname: x\ndescription: ' + 'd'.repeat(1025) + '\n---\n').problems).toMatchObject([
      { code: 'InvalidField' },
    ]);
    expect(parseSkill('no front matter').problems).toMatchObject([
      { code: 'MissingField', severity: 'error' },
    ]);
  });

  it('refuses to save what the convention does not allow', () => {
    expect(() => createSkillText({ name: 'Bad', description: 'd', body: '' })).toThrow(
      expect.objectContaining({ code: 'InvalidArgument' }),
    );
    expect(() => createSkillText({ name: 'ok', description: '  ', body: '' })).toThrow(
      expect.objectContaining({ code: 'InvalidArgument' }),
    );
    expect(() => validateSkillText('---\nname: a\ndescription: d\n---\n', 'b')).toThrow(
      expect.objectContaining({ code: 'InvalidArgument' }),
    );
    expect(validateSkillText('---\nname: b\ndescription: d\n---\n', 'b').name).toBe('b');
  });

  it('edits one field and keeps the rest byte for byte', () => {
    const text = '---\r\nname: a\r\ndescription: old\r\nx-custom: 1\r\n---\r\nBody  \r\n';
    expect(setSkillField(text, 'description', 'new: one')).toBe(
      text.replace('description: old', 'description: "new: one"'),
    );
  });
});
