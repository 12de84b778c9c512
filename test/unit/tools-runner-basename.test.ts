/** The runner tables' command names: the last path segment, a Windows `.exe`/`.cmd`/`.bat` ending dropped. */
import { expect, it } from 'vitest';
import { basename } from '../../src/core/tool-calls/checks/runners';

it.each([
  ['pytest', 'pytest'],
  ['/usr/bin/python3', 'python3'],
  ['./node_modules/.bin/vitest', 'vitest'],
  ['npm.cmd', 'npm'],
  ['C:/Program Files/nodejs/node.exe', 'node'],
  ['gradlew.bat', 'gradlew'],
  ['tool.EXE', 'tool.EXE'],
  ['a.exe.bat', 'a.exe'],
  ['.exe', ''],
  ['exe', 'exe'],
  ['xexe', 'xexe'],
  ['x.exes', 'x.exes'],
  ['x.ex', 'x.ex'],
  ['dir/', ''],
  ['', ''],
])('%j → %j', (word, name) => {
  expect(basename(word)).toBe(name);
});
