/**
 * `run_check`: the workspace's tests — code the model wrote — run in a sandboxed frame of an opaque origin
 * (check-sandbox.ts), never in the page's origin, and are ended after a bound: a check never hangs the page.
 */
import { resultKind, sandboxAttribute, sandboxDocument } from './check-sandbox';
import type { CheckResult } from './test-runner';

export type { CheckResult } from './test-runner';

/** The one message the page takes from the frame: the result of the run it asked for. */
function isResult(data: unknown, id: string): data is CheckResult {
  if (typeof data !== 'object' || data === null) return false;
  const message = data as Record<string, unknown>;
  return (
    message['kind'] === resultKind &&
    message['id'] === id &&
    typeof message['output'] === 'string' &&
    Number.isInteger(message['exitCode'])
  );
}

export function runCheck(files: Readonly<Record<string, string>>, timeoutMs = 5_000): Promise<CheckResult> {
  const id = crypto.randomUUID();
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', sandboxAttribute);
  frame.hidden = true;
  frame.title = 'run_check sandbox';
  frame.srcdoc = sandboxDocument();
  return new Promise<CheckResult>((resolve) => {
    const finish = (result: CheckResult) => {
      clearTimeout(timer);
      removeEventListener('message', onMessage);
      frame.remove(); // ends the frame's worker with it
      resolve(result);
    };
    const timer = setTimeout(
      () =>
        finish({
          output: `# the tests did not finish within ${timeoutMs / 1000} s and were stopped`,
          exitCode: 124,
        }),
      timeoutMs,
    );
    // The frame's origin is opaque ("null"): it is known by its window, not by event.origin.
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.contentWindow || !isResult(event.data, id)) return;
      finish({ output: event.data.output, exitCode: event.data.exitCode });
    };
    addEventListener('message', onMessage);
    frame.addEventListener('load', () => frame.contentWindow?.postMessage({ id, files }, '*'), {
      once: true,
    });
    document.body.append(frame);
  });
}
