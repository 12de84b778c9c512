// First step of `npm test`: the browser and end-to-end suites need a Chromium. Find one, or install Debian's
// when we may (root with apt-get, as on a fresh CI machine); otherwise fail loudly with what to do.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const candidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const fromEnv = process.env.CHROMIUM_PATH;
const found = () => (fromEnv ? existsSync(fromEnv) : candidates.some((path) => existsSync(path)));

if (!found()) {
  const canInstall = !fromEnv && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (canInstall) {
    console.log(
      "No Chromium found: installing Debian's chromium (apt-get update && apt-get install -y chromium)…",
    );
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  if (!found()) {
    console.error(
      fromEnv
        ? `CHROMIUM_PATH=${fromEnv} does not exist.`
        : 'No Chromium found for the browser tests. Install one with `sudo apt-get install -y chromium` ' +
            '(or set CHROMIUM_PATH to a Chromium/Chrome binary).',
    );
    process.exit(1);
  }
}
