/**
 * Commands named like an object's built-in members (`constructor`, `toString`, `valueOf`, `__proto__`): the
 * classifier's name tables are looked up by own keys only, so such a command is an unknown command like any other
 * and the rest of its command line is still read.
 */
import { expect, it } from 'vitest';
import { classifyToolCall } from '../../src/core/tool-calls';

it.each(['constructor x', 'toString', 'valueOf --help', 'hasOwnProperty', '__proto__ a'])('%s', (command) => {
  const meaning = classifyToolCall({
    tool: 'bash',
    input: { command: `cd /testbed && ${command} && python -m pytest tests -q` },
    output: '1 passed in 0.01s\n',
    exitCode: 0,
  });
  expect(meaning.notes.filter((n) => n.startsWith('The classifier failed'))).toEqual([]);
  expect(meaning.checks.map((c) => [c.runner, c.result.status])).toEqual([['pytest', 'passed']]);
});
