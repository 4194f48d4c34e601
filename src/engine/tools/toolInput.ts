import { err, ok, type Result } from '../../core/result';

/**
 * The subset of JSON Schema the tools' hand-written input schemas use (draft 2020-12 keywords, as
 * MCP and VS Code read them): an object of scalar properties, with bounds and enums.
 */
export interface JsonSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, PropertySchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties: false;
}

/** One property of a tool's input. */
export interface PropertySchema {
  readonly type: 'string' | 'integer' | 'number' | 'boolean';
  readonly description: string;
  readonly enum?: readonly string[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly default?: string | number | boolean;
}

/**
 * Checks `input` against `schema` and returns it with the defaults filled in, or an error naming
 * the first offending property and what it must be. `undefined` or `null` input is `{}`; an unknown
 * property, a wrong type, a value out of bounds or outside the enum is refused. Never throws.
 */
export function validateInput(schema: JsonSchema, input: unknown): Result<Record<string, unknown>> {
  const given = input ?? {};
  if (typeof given !== 'object' || Array.isArray(given)) return err('the input must be a JSON object');
  const record = given as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !(key in schema.properties));
  if (unknown.length > 0)
    return err(`unknown input ${unknown.map((k) => `"${k}"`).join(', ')}; expected ${expected(schema)}`);
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(schema.properties)) {
    const value = record[key];
    if (value === undefined || value === null) {
      if (schema.required?.includes(key)) return err(`"${key}" is required: ${property.description}`);
      if (property.default !== undefined) out[key] = property.default;
      continue;
    }
    const problem = propertyProblem(property, value);
    if (problem) return err(`"${key}" ${problem}`);
    out[key] = value;
  }
  return ok(out);
}

function propertyProblem(p: PropertySchema, value: unknown): string | undefined {
  switch (p.type) {
    case 'string':
      if (typeof value !== 'string') return `must be a string, got ${kindOf(value)}`;
      if (p.minLength !== undefined && value.length < p.minLength)
        return `must have at least ${p.minLength} characters`;
      if (p.maxLength !== undefined && value.length > p.maxLength) return `must have at most ${p.maxLength} characters`;
      if (p.enum && !p.enum.includes(value)) return `must be one of ${p.enum.join(', ')}, got "${cut(value)}"`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `must be true or false, got ${kindOf(value)}`;
    case 'integer':
    case 'number':
      return numberProblem(p, value);
  }
}

function numberProblem(p: PropertySchema, value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return `must be a finite number, got ${kindOf(value)}`;
  if (p.type === 'integer' && !Number.isInteger(value)) return `must be an integer, got ${value}`;
  if (p.minimum !== undefined && value < p.minimum) return `must be at least ${p.minimum}, got ${value}`;
  if (p.maximum !== undefined && value > p.maximum) return `must be at most ${p.maximum}, got ${value}`;
  return undefined;
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `"${cut(value)}"`;
  if (typeof value === 'number') return String(value);
  return typeof value;
}

const cut = (text: string): string => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

function expected(schema: JsonSchema): string {
  const names = Object.keys(schema.properties);
  return names.length === 0 ? 'no input' : names.join(', ');
}
