#!/usr/bin/env node
/**
 * `npm run bench [-- --only name,name]`: runs each bench section (one file per section in ./sections), prints
 * its figures and writes them as markdown to test/bench/.cache/results/<section>.md.
 * A section exports `title` and `run()` → `{ lines: string[], ok: boolean }`; add new ones to `sections` below.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE } from './lib/corpus.mjs';

const sections = {
  checkpoints: () => import('./sections/checkpoints.mjs'),
  lifecycle: () => import('./sections/lifecycle.mjs'),
  history: () => import('./sections/history.mjs'),
  'record-event': () => import('./sections/record-event.mjs'),
  'tool-calls': () => import('./sections/tool-calls.mjs'),
  import: () => import('./sections/import.mjs'),
};

function onlyArgument(args) {
  const inline = args.find((arg) => arg.startsWith('--only='));
  if (inline) return inline.slice('--only='.length);
  const at = args.indexOf('--only');
  return at === -1 ? undefined : args[at + 1];
}
const only = onlyArgument(process.argv.slice(2));
const wanted = only ? only.split(',') : Object.keys(sections);
const unknown = wanted.filter((name) => !(name in sections));
if (unknown.length > 0) {
  console.error(
    `Unknown bench section(s): ${unknown.join(', ')}. Known: ${Object.keys(sections).join(', ')}.`,
  );
  process.exit(2);
}

const resultsDir = join(CACHE, 'results');
mkdirSync(resultsDir, { recursive: true });
let allOk = true;
for (const name of wanted) {
  const section = await sections[name]();
  console.log(`\n## ${section.title} (${name})\n`);
  const started = performance.now();
  const { lines, ok } = await section.run();
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  const text = [
    ...lines,
    '',
    `_Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench\` in ${seconds} s._`,
  ].join('\n');
  console.log(`\n${text}\n`);
  writeFileSync(join(resultsDir, `${name}.md`), `## ${section.title}\n\n${text}\n`);
  allOk &&= ok;
}
console.log(allOk ? 'All targets met.' : 'Some targets were missed (see the tables above).');
