import { z } from 'zod';

/**
 * What a transport needs to know of a procedure's input before it parses a body or reads a
 * query (docs/keys-and-limits.md#bodies): the most items each array may hold, by
 * where it sits, and which top-level fields take a list. Taken from the input schema itself, so
 * that the early checks and the schema cannot disagree.
 */
export interface InputShape {
  /** This value as an array: the most items it may hold (undefined: the schema sets no maximum). */
  maxItems?: number | undefined;
  /** The shape of each item, when this value is an array. */
  items?: InputShape | undefined;
  /** The shape of each named member, when this value is an object. */
  properties?: Record<string, InputShape> | undefined;
  /** The shape of members not named (a record), when this value is an object. */
  additional?: InputShape | undefined;
  /** Whether the value may be an array at all. */
  array: boolean;
}

type JsonSchema = {
  type?: string | string[];
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
};

/** Merges the shapes of alternatives: the larger maximum, every member of each. */
function merge(a: InputShape, b: InputShape): InputShape {
  const array = a.array || b.array;
  const maxItems =
    a.array && b.array
      ? a.maxItems === undefined || b.maxItems === undefined
        ? undefined
        : Math.max(a.maxItems, b.maxItems)
      : a.array
        ? a.maxItems
        : b.maxItems;
  const items = a.items && b.items ? merge(a.items, b.items) : (a.items ?? b.items);
  let properties = a.properties ?? b.properties;
  if (a.properties && b.properties) {
    properties = { ...a.properties };
    for (const [k, v] of Object.entries(b.properties))
      properties[k] = properties[k] ? merge(properties[k], v) : v;
  }
  const additional =
    a.additional && b.additional ? merge(a.additional, b.additional) : (a.additional ?? b.additional);
  return { array, maxItems, items, properties, additional };
}

function shapeOf(schema: JsonSchema, defs: Record<string, JsonSchema>, seen: Set<string>): InputShape {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/$defs/', '');
    const target = defs[name];
    // a recursive definition: its inner uses are unbounded (no input schema is recursive today)
    if (!target || seen.has(name)) return { array: true };
    return shapeOf(target, defs, new Set([...seen, name]));
  }
  const alternatives = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  let shape: InputShape = { array: false };
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('array') || schema.items)
    shape = {
      array: true,
      maxItems: schema.maxItems,
      items: schema.items ? shapeOf(schema.items, defs, seen) : undefined,
    };
  if (schema.properties || typeof schema.additionalProperties === 'object') {
    const properties: Record<string, InputShape> = {};
    for (const [k, v] of Object.entries(schema.properties ?? {})) properties[k] = shapeOf(v, defs, seen);
    const additional =
      typeof schema.additionalProperties === 'object'
        ? shapeOf(schema.additionalProperties, defs, seen)
        : undefined;
    shape = merge(shape, { array: false, properties, additional });
  }
  // a schema with no type at all (`unknown`, a transform) may be anything, an unbounded array too
  if (types.length === 0 && alternatives.length === 0 && !schema.properties && !schema.items)
    shape = { array: true };
  for (const alternative of alternatives) shape = merge(shape, shapeOf(alternative, defs, seen));
  return shape;
}

/** The InputShape of a zod schema (the input a client sends, before defaults and transforms). */
export function inputShape(schema: z.ZodType): InputShape {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return shapeOf(json, json.$defs ?? {}, new Set());
}

/** The InputShape of a tRPC procedure's input (its `.input()` schemas, all of which must pass). */
export function procedureInputShape(procedure: { _def: { inputs?: unknown[] } }): InputShape | undefined {
  const inputs = (procedure._def.inputs ?? []) as z.ZodType[];
  if (inputs.length === 0) return undefined;
  return inputs.map(inputShape).reduce(merge);
}
