#!/usr/bin/env node
/**
 * `npm run bench [-- --only name,name] [-- --smoke]`: runs each bench section (one file per section in ./sections),
 * prints its figures and writes them as markdown to test/bench/.cache/results/<section>.md.
 * A section exports `title` and `run({ smoke })` → `{ lines: string[], ok: boolean, sound: boolean }`: `ok` = its
 * targets met, `sound` = what it measured is right (bodies byte-exact, integrity_check, same hits, counts); add new
 * ones to `sections` below.
 *
 * `--smoke` (a stage of `npm test`): every section at tiny sizes, under a minute in all — the figures mean nothing,
 * the run proves each section still runs. It exits non-zero when a section throws or is not sound (missed targets
 * do not count at these sizes), naming the section and the error; results go to .cache/results-smoke/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { CACHE } from './lib/corpus.mjs';

const sections = {
  checkpoints: () => import('./sections/checkpoints.mjs'),
  lifecycle: () => import('./sections/lifecycle.mjs'),
  history: () => import('./sections/history.mjs'),
  'record-event': () => import('./sections/record-event.mjs'),
  'tool-calls': () => import('./sections/tool-calls.mjs'),
  import: () => import('./sections/import.mjs'),
  follow: () => import('./sections/follow.mjs'),
};

function onlyArgument(args) {
  const inline = args.find((arg) => arg.startsWith('--only='));
  if (inline) return inline.slice('--only='.length);
  const at = args.indexOf('--only');
  return at === -1 ? undefined : args[at + 1];
}
const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const only = onlyArgument(args);
const wanted = only ? only.split(',') : Object.keys(sections);
const unknown = wanted.filter((name) => !(name in sections));
if (unknown.length > 0) {
  console.error(
    `Unknown bench section(s): ${unknown.join(', ')}. Known: ${Object.keys(sections).join(', ')}.`,
  );
  process.exit(2);
}

const resultsDir = join(CACHE, smoke ? 'results-smoke' : 'results');
mkdirSync(resultsDir, { recursive: true });
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const startedAll = performance.now();
let allOk = true;
const broken = [];
for (const name of wanted) {
  const started = performance.now();
  let title;
  let result;
  try {
    const section = await sections[name]();
    title = section.title;
    console.log(`\n## ${section.title} (${name})${smoke ? ' — smoke run, tiny sizes' : ''}\n`);
    result = await section.run({ smoke });
  } catch (error) {
    // A section that cannot run is a failure of the run, with the section named (not an unhandled rejection).
    broken.push(`${name}: threw ${error?.stack ?? error}`);
    console.error(`\nbench section "${name}" threw:\n${error?.stack ?? error}\n`);
    continue;
  }
  const { lines, ok, sound } = result;
  if (typeof ok !== 'boolean' || typeof sound !== 'boolean')
    broken.push(`${name}: run() returned no ok/sound flags`);
  else if (!sound) broken.push(`${name}: a correctness check failed (see its table)`);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  const text = [
    ...lines,
    '',
    `_Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench${smoke ? ' -- --smoke' : ''}\` in ${seconds} s; ` +
      `load average (1 / 5 / 15 min, ${availableParallelism()} cores) at the end: ${load()}._`,
  ].join('\n');
  console.log(`\n${text}\n`);
  writeFileSync(join(resultsDir, `${name}.md`), `## ${title}\n\n${text}\n`);
  allOk &&= ok === true;
}
const total = ((performance.now() - startedAll) / 1000).toFixed(0);
if (broken.length > 0) {
  console.error(`\nBench ${smoke ? 'smoke run ' : ''}FAILED after ${total} s:\n- ${broken.join('\n- ')}`);
  process.exit(1);
}
if (smoke) console.log(`Bench smoke run: all ${wanted.length} sections ran, in ${total} s.`);
else console.log(allOk ? 'All targets met.' : 'Some targets were missed (see the tables above).');
