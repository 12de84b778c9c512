/**
 * The small JSON Schema vocabulary the tool inputs use: plain objects with typed properties, closed to unknown
 * keys (a misspelt parameter is an error the model sees, never silently ignored). Every schema is plain JSON,
 * valid for Anthropic's `input_schema` and OpenAI's `function.parameters` alike.
 */
export type JsonSchema = { readonly [key: string]: JsonSchemaValue };
type JsonSchemaValue = string | number | boolean | null | readonly JsonSchemaValue[] | JsonSchema;

export interface ObjectSchema extends JsonSchema {
  readonly type: 'object';
  readonly properties: { readonly [name: string]: JsonSchema };
  readonly required: readonly string[];
  readonly additionalProperties: false;
}

/** Bounds on what a model may send in one call; the engine has its own (it refuses longer text typed). */
export const toolTextLimit = 20_000;

export const text = (description: string, maxLength = toolTextLimit): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength,
  description,
});

export const id = (description: string): JsonSchema => ({ type: 'integer', minimum: 1, description });

export const oneOf = (values: readonly string[], description: string): JsonSchema => ({
  type: 'string',
  enum: values,
  description,
});

export const list = (items: JsonSchema, description: string, maxItems: number): JsonSchema => ({
  type: 'array',
  items,
  minItems: 1,
  maxItems,
  description,
});

/** `required` and `optional` are name → schema maps; a property named in `bound` is left out (the host fills it). */
export function object(
  required: { readonly [name: string]: JsonSchema },
  optional: { readonly [name: string]: JsonSchema } = {},
  bound: ReadonlySet<string> = new Set(),
): ObjectSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, schema] of [...Object.entries(required), ...Object.entries(optional)]) {
    if (!bound.has(name)) properties[name] = schema;
  }
  return {
    type: 'object',
    properties,
    required: Object.keys(required).filter((name) => !bound.has(name)),
    additionalProperties: false,
  };
}
