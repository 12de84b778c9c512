/**
 * Tool output as the summary parsers read it: lines without ANSI colours or carriage-return progress, each cut to
 * `maxLineChars`, from at most the last `maxScanChars` of the text (summaries are printed last). And the exit
 * codes that agents write into the output text when their format has no field for it.
 */

export const maxScanChars = 8 * 1024 * 1024;
export const maxLineChars = 2000;

// ANSI escape sequences (colours, cursor moves, OSC titles) are control characters by definition.
// eslint-disable-next-line no-control-regex
const ansi = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>]/g;

/** One output line, cleaned: colours removed, and only what follows the last `\r` (a progress bar's end). */
export function cleanLine(raw: string): string {
  let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line.includes('\x1b')) line = line.replace(ansi, '');
  const cr = line.lastIndexOf('\r');
  return cr >= 0 ? line.slice(cr + 1) : line;
}

/**
 * The output's lines, cleaned and bounded: split at `\n` (no line after a final one), each cut to
 * `maxLineChars`, then cleaned — a line is cleaned only when the text has a `\r` or an escape at all.
 */
export function outputLines(output: string): string[] {
  const text = output.length > maxScanChars ? output.slice(output.length - maxScanChars) : output;
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const clean = text.includes('\r') || text.includes('\x1b');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const cut = line.length > maxLineChars ? line.slice(0, maxLineChars) : line;
    if (clean) lines[i] = cleanLine(cut);
    else if (cut !== line) lines[i] = cut;
  }
  return lines;
}

const headExit = [
  /^Exit code:? (-?\d{1,3})\s*$/, // Claude Code (`Exit code 1`, on errors), Codex (`Exit code: 0`)
  /^Process exited with code (-?\d{1,3})\s*$/, // Codex exec_command
  /^<returncode>(-?\d{1,3})<\/returncode>\s*$/, // mini-swe-agent
  // Cline (3.x): `Command executed successfully (exit code 0).` / `Command failed with exit code 1.`
  /^Command executed successfully \(exit code:? (-?\d{1,3})\)\.?\s*$/,
  /^Command failed with exit code:? (-?\d{1,3})\.?\s*$/,
];
const tailExit = [
  /^\[The command completed with exit code (-?\d{1,3})\.\]$/, // OpenHands
  /^\[Command finished with exit code (-?\d{1,3})\]$/,
];

/**
 * The exit code an agent wrote into the output text: Claude Code's `Exit code N` first line, Codex's `Exit
 * code: N` / `Process exited with code N` header or its JSON `{output, metadata: {exit_code}}`, mini-swe-agent's
 * `<returncode>`, Cline's `Command executed successfully (exit code 0).` / `Command failed with exit code N.`,
 * OpenHands' closing `[… exit code N]`. Null when there is none.
 */
export function exitCodeInOutput(output: string): { exitCode: number; text: string } | null {
  if (output.startsWith('{') && output.includes('"exit_code"') && output.length <= maxScanChars) {
    const parsed = parseCodexJson(output);
    if (parsed) return parsed;
  }
  let start = 0;
  for (let k = 0; k < 6 && start < output.length; k++) {
    let end = output.indexOf('\n', start);
    if (end < 0) end = output.length;
    const line = output.slice(start, Math.min(end, start + 200));
    for (const pattern of headExit) {
      const m = pattern.exec(line);
      if (m) return { exitCode: Number(m[1]), text: output.slice(end + 1) };
    }
    start = end + 1;
  }
  const tail = output.slice(-300).trimEnd();
  const lastLine = tail.slice(tail.lastIndexOf('\n') + 1).trim();
  for (const pattern of tailExit) {
    const m = pattern.exec(lastLine);
    if (m) return { exitCode: Number(m[1]), text: output.slice(0, output.length - lastLine.length) };
  }
  return null;
}

function parseCodexJson(output: string): { exitCode: number; text: string } | null {
  let value: unknown;
  try {
    value = JSON.parse(output);
  } catch {
    return null; // Not JSON after all: the text is read as it is.
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as { output?: unknown; metadata?: { exit_code?: unknown } };
  const code = record.metadata?.exit_code;
  if (typeof code !== 'number' || !Number.isInteger(code)) return null;
  return { exitCode: code, text: typeof record.output === 'string' ? record.output : '' };
}
