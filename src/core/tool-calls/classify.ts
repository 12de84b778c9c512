/**
 * `classifyToolCall`: one tool call, of any agent, → what it means (checks run, files changed, files read, the
 * plan written), as plain data. Pure and deterministic; it never throws, and its work is bounded for any input
 * (command lines past 1 MiB and outputs past 8 MiB are read in part, and say so in `notes`).
 */
import { shellQuote } from './checks/identity';
import { shellOutcome, toolOutcome } from './exit-status';
import type { FileEffect, FileRead, PlanUpdate } from './effect-types';
import { patchRefusal } from './effects/apply-patch';
import { readEditTool } from './effects/edit-tools';
import { windowedEditEffects } from './effects/swe-agent-windowed';
import { asFields, obj, str, strings, type Fields } from './json-input';
import { checklistPlan, readPlan } from './plans';
import { readToolReads } from './reads';
import { readShellCall } from './shell-call';
import { shells } from './shell/prefixes';
import { bareToolName, familyOf, handlerOf, type Handler } from './tool-names';
import type { CheckRun, ClassifyContext, ScriptRun, StepKind, ToolCall, ToolCallMeaning } from './types';

const maxTextChars = 4000;
const submitCommand = { command: 'submit', workdir: null };

export function classifyToolCall(call: ToolCall, context?: ClassifyContext): ToolCallMeaning {
  try {
    return classify(call, context);
  } catch (error) {
    // Defence in depth, tested never to be reached by the fuzz suite: the step is still recorded, with why.
    const message = error instanceof Error ? error.message : String(error);
    return meaning('unknown', { notes: [`The classifier failed on this call: ${message}`] });
  }
}

interface Parts {
  command?: string | null;
  exitCode?: number | null;
  error?: string | null;
  checks?: CheckRun[];
  fileEffects?: FileEffect[];
  reads?: FileRead[];
  plan?: PlanUpdate | null;
  scripts?: ScriptRun[];
  changesSetAside?: boolean | null;
  failed?: boolean;
  notes?: string[];
}

function meaning(family: ToolCallMeaning['family'], parts: Parts): ToolCallMeaning {
  const checks = parts.checks ?? [];
  const fileEffects = parts.fileEffects ?? [];
  const reads = parts.reads ?? [];
  const plan = parts.plan ?? null;
  const kind: StepKind =
    checks.length > 0
      ? 'check'
      : fileEffects.length > 0
        ? 'edit'
        : plan
          ? 'plan'
          : reads.length > 0 || family === 'read'
            ? 'read'
            : 'other';
  return {
    kind,
    family,
    command: parts.command ?? null,
    exitCode: parts.exitCode ?? null,
    error: parts.error ?? null,
    checks,
    fileEffects,
    reads,
    plan,
    scripts: parts.scripts ?? [],
    failed: parts.failed ?? false,
    notes: parts.notes ?? [],
    changesSetAside: parts.changesSetAside ?? null,
  };
}

function classify(call: ToolCall, context: ClassifyContext | undefined): ToolCallMeaning {
  const tool = typeof call.tool === 'string' ? call.tool : '';
  const handler = handlerOf(tool);
  const family = familyOf(handler);
  const extraPlan = checklistPlan(call.input, tool);
  if (handler === 'shell') {
    const outcome = shellOutcome(call);
    // SWE-agent's `submit` tool (and an importer's call for a submission no call showed) takes no arguments.
    const shell = shellCommand(call.input) ?? (bareToolName(tool) === 'submit' ? submitCommand : null);
    if (shell === null)
      return meaning(family, {
        command: textOf(call.input),
        plan: extraPlan,
        exitCode: outcome.exitCode,
        error: outcome.error,
        notes: ['No command line in the input.'],
      });
    const windowed = windowedEditEffects(shell.command, outcome.text);
    if (windowed !== null)
      return meaning(family, {
        command: shell.command.slice(0, 100_000),
        exitCode: outcome.exitCode,
        error: outcome.error,
        fileEffects: windowed,
        plan: extraPlan,
      });
    const read = readShellCall(shell.command, shell.workdir, call, context);
    const ran = outcome.exitCode !== null || outcome.text !== '';
    return meaning(family, {
      command: shell.command.slice(0, 100_000),
      exitCode: outcome.exitCode,
      error: outcome.error,
      checks: read.checks,
      fileEffects: read.effects,
      reads: read.reads,
      scripts: read.scripts,
      plan: extraPlan,
      changesSetAside: read.setAside,
      failed: outcome.error !== null && !ran,
      notes: read.notes,
    });
  }
  const { error, exitCode } = outcomeOf(call, handler, family);
  if (family === 'edit') {
    const output = typeof call.output === 'string' ? call.output : undefined;
    const read = readEditTool(handler as Handler, tool, call.input, call.result, output);
    const command = read.effects[0]?.path ?? read.reads[0]?.path ?? textOf(call.input);
    const refusal = refusalOf(call, handler);
    return meaning(family, {
      command,
      fileEffects: read.effects,
      reads: read.reads,
      plan: extraPlan,
      error,
      failed: error !== null,
      notes: refusal === null ? read.notes : [...read.notes, `Not applied: ${refusal}`],
    });
  }
  if (family === 'read') {
    const reads = readToolReads(handler as Handler, tool, call.input);
    const command = reads[0]
      ? [reads[0].pattern, reads[0].path].filter((x) => x !== null).join(' ')
      : textOf(call.input);
    return meaning(family, { command, reads, plan: extraPlan, error, failed: error !== null });
  }
  if (family === 'plan') {
    const plan = readPlan(handler as Handler, tool, call.input);
    const command =
      plan?.mode === 'replace'
        ? plan.items
            .map((i) => i.text)
            .join('\n')
            .slice(0, maxTextChars)
        : textOf(call.input);
    return meaning(family, {
      command,
      plan,
      error,
      failed: error !== null,
      notes: plan ? [] : ['The plan input has no items.'],
    });
  }
  return meaning(family, {
    command: textOf(call.input),
    plan: extraPlan,
    exitCode,
    error,
    failed: error !== null,
  });
}

/**
 * A call's exit code and the tool's error as its classification states them — what its stored result holds
 * (records.ts `stepOf`) — without reading what the call did: an import's line reader writes the step ahead from it.
 */
export function stepOutcome(call: ToolCall): Pick<ToolCallMeaning, 'exitCode' | 'error'> {
  const handler = handlerOf(typeof call.tool === 'string' ? call.tool : '');
  return outcomeOf(call, handler, familyOf(handler));
}

/** A patch the tool refused (its output says so; no error flag is written) changed nothing. */
const refusalOf = (call: ToolCall, handler: ReturnType<typeof handlerOf>) =>
  handler === 'apply-patch' && typeof call.output === 'string' ? patchRefusal(call.output) : null;

function outcomeOf(
  call: ToolCall,
  handler: ReturnType<typeof handlerOf>,
  family: ToolCallMeaning['family'],
): Pick<ToolCallMeaning, 'exitCode' | 'error'> {
  if (handler === 'shell') {
    const { exitCode, error } = shellOutcome(call);
    return { exitCode, error };
  }
  const { error, exitCode } = toolOutcome(call);
  if (family === 'edit') return { exitCode: null, error: error ?? refusalOf(call, handler) };
  if (family === 'read' || family === 'plan') return { exitCode: null, error };
  return { exitCode, error };
}

/** The command line of a shell tool's input: a string, `{command}` (string or argv), `{cmd}`, `{action}`. */
function shellCommand(input: unknown): { command: string; workdir: string | null } | null {
  if (typeof input === 'string' && !input.trimStart().startsWith('{'))
    return { command: input, workdir: null };
  const f = asFields(input);
  const action = obj(f, 'action');
  const workdir =
    str(f, 'workdir', 'directory', 'cwd', 'working_directory', 'dir_path') ??
    str(action, 'working_directory', 'workdir');
  const text = str(f, 'command', 'cmd', 'script');
  if (text !== null) return { command: text, workdir };
  const argv = strings(f?.['command'] ?? action?.['command'] ?? f?.['cmd'] ?? f?.['argv']);
  if (!argv || argv.length === 0) return null;
  const base = (argv[0] ?? '').slice((argv[0] ?? '').lastIndexOf('/') + 1);
  if (shells.has(base) && argv.length === 3 && /^-[a-z]*c[a-z]*$/.test(argv[1] ?? ''))
    return { command: argv[2] as string, workdir };
  return { command: argv.map(shellQuote).join(' '), workdir };
}

/** A short text of any input, for search: the input string, a known text field, or bounded JSON. */
function textOf(input: unknown): string | null {
  if (typeof input === 'string') return input.slice(0, maxTextChars);
  const f: Fields | null = asFields(input);
  const field = str(
    f,
    'command',
    'cmd',
    'query',
    'pattern',
    'path',
    'file_path',
    'absolutePath',
    'url',
    'prompt',
    'description',
  );
  if (field !== null) return field.slice(0, maxTextChars);
  if (input === undefined || input === null) return null;
  try {
    return (JSON.stringify(input) ?? '').slice(0, maxTextChars) || null;
  } catch {
    return null; // A value JSON cannot hold (a cycle, a BigInt): no text to keep.
  }
}
