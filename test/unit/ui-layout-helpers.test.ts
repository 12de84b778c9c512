import { describe, expect, it } from 'vitest';
import { defaultLayout } from '../../src/ui/diff-layout';
import { byteScale } from '../../src/ui/format';
import { isSearchShortcut, isTypingTarget } from '../../src/ui/keys';

const ticks = (max: number, count?: number) => {
  const scale = byteScale(max, count);
  const out: string[] = [];
  for (let at = 0; at <= scale.max + 1e-6; at += scale.step) out.push(scale.label(at));
  return out;
};

describe('byte axis ticks', () => {
  it('steps in round numbers of one binary unit, not decimal steps shown in KiB', () => {
    // What Chart.js picks on its own for a 200 KiB axis: 0, 50 000, 100 000… read as 49 / 98 / 146 / 195 KiB.
    expect(ticks(200 * 1024)).toEqual(['0 KiB', '50 KiB', '100 KiB', '150 KiB', '200 KiB']);
    expect(ticks(180_000)).toEqual(['0 KiB', '50 KiB', '100 KiB', '150 KiB', '200 KiB']);
    expect(ticks(3.2 * 1024 ** 2)).toEqual(['0 MiB', '1 MiB', '2 MiB', '3 MiB', '4 MiB']);
  });

  it('goes up a unit rather than print 1000 of the one below', () => {
    expect(ticks(1000)).toEqual(['0 KiB', '0.5 KiB', '1 KiB']);
    expect(ticks(950 * 1024)).toEqual(['0 MiB', '0.5 MiB', '1 MiB']);
    expect(ticks(1500)).toEqual(['0 KiB', '0.5 KiB', '1 KiB', '1.5 KiB']);
    for (const max of [900, 999, 1023, 1024, 5000, 800_000, 1024 ** 3 * 0.99]) {
      for (const label of ticks(max)) expect(Number.parseFloat(label), `${max}: ${label}`).toBeLessThan(1000);
    }
  });

  it('tops the axis at the first tick at or above the largest value, with whole bytes for small ones', () => {
    for (const max of [0, 1, 7, 130, 1500, 65_000, 2_000_000, 7.5 * 1024 ** 3]) {
      const scale = byteScale(max);
      expect(scale.max).toBeGreaterThanOrEqual(max);
      expect(scale.max - scale.step).toBeLessThan(Math.max(max, 1));
      expect(scale.max / scale.step).toBeLessThanOrEqual(8);
    }
    expect(ticks(7)).toEqual(['0 B', '2 B', '4 B', '6 B', '8 B']);
    expect(ticks(0)).toEqual(['0 B', '1 B']);
  });
});

describe('diff layout', () => {
  it('is unified on a phone and side by side on a wide screen', () => {
    expect(defaultLayout(390)).toBe('line-by-line');
    expect(defaultLayout(700)).toBe('line-by-line');
    expect(defaultLayout(701)).toBe('side-by-side');
    expect(defaultLayout(1280)).toBe('side-by-side');
  });
});

describe('the / shortcut', () => {
  const press = (key: string, target: unknown, extra: Partial<Record<string, boolean>> = {}) => ({
    key,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    defaultPrevented: false,
    target: target as EventTarget,
    ...extra,
  });
  // Element-shaped stand-ins: the checks read only tagName, type and isContentEditable.
  const element = (tagName: string, more: object = {}) => ({ tagName, ...more }) as unknown as EventTarget;

  it('goes to search from the page, a link or a button', () => {
    expect(isSearchShortcut(press('/', element('BODY')))).toBe(true);
    expect(isSearchShortcut(press('/', element('A')))).toBe(true);
    expect(isSearchShortcut(press('/', element('INPUT', { type: 'checkbox' })))).toBe(true);
  });

  it('is a typed slash in a text field, a text area, a select or an editor', () => {
    expect(isTypingTarget(element('INPUT', { type: 'text' }))).toBe(true);
    expect(isSearchShortcut(press('/', element('INPUT', { type: 'search' })))).toBe(false);
    expect(isSearchShortcut(press('/', element('INPUT')))).toBe(false);
    expect(isSearchShortcut(press('/', element('TEXTAREA')))).toBe(false);
    expect(isSearchShortcut(press('/', element('DIV', { isContentEditable: true })))).toBe(false);
  });

  it('leaves other keys, modified slashes and handled presses alone', () => {
    expect(isSearchShortcut(press('?', element('BODY')))).toBe(false);
    expect(isSearchShortcut(press('/', element('BODY'), { ctrlKey: true }))).toBe(false);
    expect(isSearchShortcut(press('/', element('BODY'), { metaKey: true }))).toBe(false);
    expect(isSearchShortcut(press('/', element('BODY'), { defaultPrevented: true }))).toBe(false);
  });
});
