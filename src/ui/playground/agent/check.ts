/** Runs the workspace's tests in a worker, ended after a bound: a check never hangs the page. */
export interface CheckResult {
  readonly output: string;
  readonly exitCode: number;
}

export function runCheck(files: Readonly<Record<string, string>>, timeoutMs = 5_000): Promise<CheckResult> {
  const worker = new Worker(new URL('./check.worker.ts', import.meta.url), { type: 'module' });
  return new Promise<CheckResult>((resolve) => {
    const timer = setTimeout(() => {
      worker.terminate();
      resolve({
        output: `# the tests did not finish within ${timeoutMs / 1000} s and were stopped`,
        exitCode: 124,
      });
    }, timeoutMs);
    worker.onmessage = (event: MessageEvent<CheckResult>) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      clearTimeout(timer);
      worker.terminate();
      resolve({ output: `# the test runner failed: ${event.message}`, exitCode: 1 });
    };
    worker.postMessage({ files });
  });
}
