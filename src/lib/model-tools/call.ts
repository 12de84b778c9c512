/**
 * `callBrainTool`: validates a model's input against the tool's schema (@cfworker/json-schema: no code
 * generation, so it runs under a strict CSP), runs it, and answers with text the model can act on — the
 * result, or what was wrong and what to do instead. It never throws for a bad call; only a bug would.
 */
import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { isBrainError } from '../../core/errors';
import { eventTools } from './event-tools';
import { planTools } from './plan-tools';
import { readTools } from './read-tools';
import type { ObjectSchema } from './schema';
import type { BoundIds, BrainToolHost, ToolInput, ToolSpec } from './spec';

export const toolSpecs = [...eventTools, ...planTools, ...readTools] as const;
export type BrainToolName = (typeof toolSpecs)[number]['name'];
export const brainToolNames: readonly BrainToolName[] = toolSpecs.map((spec) => spec.name);

export type BrainToolResult =
  | { readonly ok: true; readonly tool: BrainToolName; readonly text: string }
  | {
      readonly ok: false;
      readonly tool: string;
      /** `InvalidInput` for input the schema refuses, `UnknownTool`, else the engine's BrainError code. */
      readonly code: string;
      /** What the model reads: what went wrong and what to do about it. */
      readonly text: string;
    };

const specsByName = new Map<string, ToolSpec>(toolSpecs.map((spec) => [spec.name, spec]));

export function boundNames(bound: BoundIds): ReadonlySet<string> {
  return new Set(Object.entries(bound).flatMap(([name, value]) => (value === undefined ? [] : [name])));
}

const validators = new Map<string, Validator>();
function validatorFor(name: string, bound: ReadonlySet<string>, schema: ObjectSchema): Validator {
  const key = `${name}|${[...bound].sort().join(',')}`;
  let validator = validators.get(key);
  if (!validator) {
    // The same JSON Schema object; the package's `Schema` type only has mutable arrays.
    validator = new Validator(schema as Schema, '2020-12', false);
    validators.set(key, validator);
  }
  return validator;
}

/** One line per problem, named by its place in the input (aggregate "does not match" lines left out). */
function describeErrors(errors: readonly OutputUnit[], schema: ObjectSchema): string[] {
  const lines = new Set<string>();
  for (const error of errors) {
    const where = error.instanceLocation.replace(/^#\/?/, '').replace(/\//g, '.') || 'input';
    if (error.keyword === 'properties' || error.keyword === 'items' || error.keyword === 'false') continue;
    if (error.keyword === 'additionalProperties') {
      const name = /Property "([^"]+)"/.exec(error.error)?.[1] ?? '?';
      const allowed = where === 'input' ? ` (parameters: ${Object.keys(schema.properties).join(', ')})` : '';
      lines.add(`${where === 'input' ? '' : `${where}: `}"${name}" is not a parameter${allowed}`);
    } else if (error.keyword === 'required') {
      const name = /property "([^"]+)"/.exec(error.error)?.[1] ?? '?';
      lines.add(`${where === 'input' ? '' : `${where}.`}${name} is required`);
    } else if (error.keyword === 'type') {
      const [, got, expected] = /type "([^"]+)" is invalid\. Expected "([^"]+)"/.exec(error.error) ?? [];
      lines.add(
        got ? `${where} must be ${expected ?? 'another type'}, not ${got}` : `${where}: ${error.error}`,
      );
    } else {
      lines.add(`${where}: ${error.error.replace(/\.$/, '')}`);
    }
  }
  return [...lines];
}

function parseInput(input: unknown): { value: unknown } | { error: string } {
  if (typeof input !== 'string') return { value: input ?? {} };
  // OpenAI-style tool calls carry their arguments as JSON text.
  try {
    return { value: input.trim() === '' ? {} : (JSON.parse(input) as unknown) };
  } catch (error) {
    return {
      error: `the arguments are not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

/**
 * Runs the tool `name` with the model's `input` (an object, or its JSON text). With `bound`, the ids it names are
 * filled in (and are not parameters the model passes), as `brainTools(brain, bound)` described them.
 */
export async function callBrainTool(
  brain: BrainToolHost,
  name: string,
  input: unknown,
  bound: BoundIds = {},
): Promise<BrainToolResult> {
  const spec = specsByName.get(name);
  if (!spec) {
    return {
      ok: false,
      tool: name,
      code: 'UnknownTool',
      text: `There is no tool "${name}". The tools are: ${brainToolNames.join(', ')}.`,
    };
  }
  const names = boundNames(bound);
  const schema = spec.schema(names);
  const parsed = parseInput(input);
  if ('error' in parsed) return invalid(spec, [parsed.error], schema);
  const result = validatorFor(spec.name, names, schema).validate(parsed.value);
  if (!result.valid) return invalid(spec, describeErrors(result.errors, schema), schema);
  const filled: ToolInput = { ...(parsed.value as ToolInput), ...boundIdsOf(spec, bound) };
  try {
    return { ok: true, tool: spec.name as BrainToolName, text: await spec.run(brain, filled) };
  } catch (error) {
    if (!isBrainError(error)) throw error;
    const hint = spec.hints?.[error.code];
    return {
      ok: false,
      tool: spec.name,
      code: error.code,
      text: `${spec.name} failed (${error.code}): ${error.message}${hint ? `\nWhat to do: ${hint}` : ''}`,
    };
  }
}

/** The bound ids this tool takes (its full schema has them), to add to the model's input. */
function boundIdsOf(spec: ToolSpec, bound: BoundIds): Record<string, number> {
  const full = spec.schema(new Set()).properties;
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(bound)) {
    if (typeof value === 'number' && name in full) out[name] = value;
  }
  return out;
}

function invalid(spec: ToolSpec, problems: readonly string[], schema: ObjectSchema): BrainToolResult {
  const expected = Object.entries(schema.properties)
    .map(([key, property]) => `${key}${schema.required.includes(key) ? '' : '?'}: ${typeLabel(property)}`)
    .join(', ');
  return {
    ok: false,
    tool: spec.name,
    code: 'InvalidInput',
    text: `${spec.name} was not run: ${problems.join('; ')}. It takes { ${expected} }. Fix the input and call it again.`,
  };
}

function typeLabel(schema: ObjectSchema['properties'][string]): string {
  if (Array.isArray(schema['enum']))
    return (schema['enum'] as string[]).map((v) => JSON.stringify(v)).join(' | ');
  const type = schema['type'];
  if (Array.isArray(type)) return type.join(' | ');
  if (type === 'array') return 'array';
  return typeof type === 'string' ? type : 'value';
}
