import { existsSync } from 'node:fs';

/** Flags Chromium needs here: root without a sandbox, and no dialling of hosts this machine cannot reach. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const candidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The Chromium the browser and end-to-end tests drive; never a silent skip when there is none. */
export function chromiumPath(): string {
  const fromEnv = process.env['CHROMIUM_PATH'];
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist.`);
    return fromEnv;
  }
  const found = candidates.find((path) => existsSync(path));
  if (!found) {
    throw new Error(
      'No Chromium found for the browser tests. Install one with `apt-get update && apt-get install -y chromium` ' +
        '(or point CHROMIUM_PATH at a Chromium/Chrome binary).',
    );
  }
  return found;
}
