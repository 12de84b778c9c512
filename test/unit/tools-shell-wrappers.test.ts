/**
 * Shell wrappers as agents write them (Codex's `bash -lc '…'`, `sh -c`, `eval`, `bash <<EOF`): the commands of the
 * script are walked in the wrapper's place. Pinned for each unit: its argv, its list item, what it is piped into,
 * whether its status is hidden, its timeout; and the connectors of the line — a lone wrapper takes its script's
 * items, a wrapper in a pipeline gives all its commands its own item.
 */
import { describe, expect, it } from 'vitest';
import { shellLine } from '../../src/core/tool-calls/shell/units';

function walked(source: string) {
  const line = shellLine(source, null);
  return {
    units: line.units.map((u) => ({
      argv: u.argv.join(' '),
      item: u.item,
      pipedInto: u.pipedInto,
      hidden: u.statusHidden,
      timeout: u.timeout,
    })),
    connectors: line.connectors,
  };
}

const unit = (
  argv: string,
  item: number,
  more: { pipedInto?: string[]; hidden?: boolean; timeout?: string } = {},
) => ({
  argv,
  item,
  pipedInto: more.pipedInto ?? [],
  hidden: more.hidden ?? false,
  timeout: more.timeout ?? null,
});

describe('shellLine: wrappers walked in place', () => {
  it.each([
    ['pytest -q', { units: [unit('pytest -q', 0)], connectors: [null] }],
    [
      "bash -lc 'cd /srv && pytest -q'",
      { units: [unit('cd /srv', 0), unit('pytest -q', 1)], connectors: ['&&', null] },
    ],
    [
      "timeout 600 bash -lc 'npm test; npm run lint'",
      {
        units: [unit('npm test', 0, { timeout: '600' }), unit('npm run lint', 1, { timeout: '600' })],
        connectors: [';', null],
      },
    ],
    [
      "sh -c 'make test' && echo ok",
      { units: [unit('make test', 0), unit('echo ok', 1)], connectors: ['&&', null] },
    ],
    [
      "bash -c 'pytest; ruff check .' | tail -5",
      {
        units: [
          unit('pytest', 0, { pipedInto: ['tail'], hidden: true }),
          unit('ruff check .', 0, { pipedInto: ['tail'], hidden: true }),
          unit('tail -5', 0),
        ],
        connectors: [null],
      },
    ],
    [
      "eval 'go test ./...' || true",
      { units: [unit('go test ./...', 0), unit('true', 1)], connectors: ['||', null] },
    ],
    [
      'bash <<EOF\ncargo test\ncargo clippy\nEOF',
      { units: [unit('cargo test', 0), unit('cargo clippy', 1)], connectors: [';', null] },
    ],
    [`bash -lc "sh -c 'bash -c \\"eval pytest\\"'"`, { units: [unit('pytest', 0)], connectors: [null] }],
    ['bash script.sh', { units: [unit('bash script.sh', 0)], connectors: [null] }],
  ])('%j', (source, expected) => {
    expect(walked(source)).toEqual(expected);
  });

  it('opens wrappers four levels deep and no further', () => {
    const deep = `sh -c "sh -c 'sh -c \\"sh -c \\\\\\"sh -c pytest\\\\\\"\\"'"`;
    const { units } = walked(deep);
    expect(units.map((u) => u.argv)).toEqual(['sh -c pytest']);
  });
});
