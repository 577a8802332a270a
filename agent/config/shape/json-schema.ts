// The JSON Schema (draft-07, what editors' YAML plugins read) generated from the shape. The shipped
// config/agent.schema.json is this output; a test fails when they differ.
import { DURATION_PATTERN } from '../values/duration'
import { fileKey, type Field, type ObjectShape, type Shape } from './shape'

export type JsonSchema = Record<string, unknown>

const ENV_REFERENCE = { type: 'string', pattern: '\\$\\{' }

function describe(schema: JsonSchema, description: string | undefined): JsonSchema {
  return description === undefined ? schema : { description, ...schema }
}

function objectSchema(shape: ObjectShape, extra: Record<string, JsonSchema> = {}, tagKey?: string): JsonSchema {
  const properties: Record<string, JsonSchema> = { ...extra }
  const required: string[] = tagKey === undefined ? [] : [tagKey]
  for (const [key, field] of Object.entries(shape.fields)) {
    properties[key] = fieldSchema(field)
    if (field.required === true) required.push(key)
    if (field.shape.kind === 'string' && field.shape.secret === true) {
      properties[fileKey(key)] = {
        description: `file ${key} is read from (instead of writing it here)`,
        type: 'string',
        minLength: 1,
      }
    }
  }
  const schema: JsonSchema = { type: 'object', properties, additionalProperties: false }
  if (required.length > 0) schema.required = required
  if (shape.needsOneOf !== undefined) schema.anyOf = shape.needsOneOf.map((key) => ({ required: [key] }))
  return describe(schema, shape.description)
}

function fieldSchema(field: Field): JsonSchema {
  const schema = { ...toJsonSchema(field.shape), description: field.description }
  return field.default === undefined ? schema : { ...schema, default: field.default }
}

export function toJsonSchema(shape: Shape): JsonSchema {
  switch (shape.kind) {
    case 'string': {
      // A formatted value may also be a ${VAR} reference, which editors cannot resolve.
      const schema: JsonSchema =
        // The loader reads a YAML number where text belongs (`numbers: [919800000001]`), so may the editor.
        shape.json === undefined
          ? { type: ['string', 'number'], minLength: 1 }
          : { anyOf: [{ type: 'string', ...shape.json }, ENV_REFERENCE] }
      return describe(shape.secret === true ? { ...schema, writeOnly: true } : schema, shape.description)
    }
    case 'integer': {
      const integer: JsonSchema = { type: 'integer' }
      if (shape.min !== undefined) integer.minimum = shape.min
      if (shape.max !== undefined) integer.maximum = shape.max
      return describe({ anyOf: [integer, ENV_REFERENCE] }, shape.description)
    }
    case 'number': {
      const number: JsonSchema = { type: 'number' }
      if (shape.above !== undefined) number.exclusiveMinimum = shape.above
      return describe({ anyOf: [number, ENV_REFERENCE] }, shape.description)
    }
    case 'boolean':
      return describe({ type: 'boolean' }, shape.description)
    case 'enum':
      return describe({ anyOf: [{ type: 'string', enum: [...shape.values] }, ENV_REFERENCE] }, shape.description)
    case 'duration':
      return describe(
        { anyOf: [{ type: 'number', minimum: 0 }, { type: 'string', pattern: DURATION_PATTERN }, ENV_REFERENCE] },
        shape.description,
      )
    case 'scalar':
      return describe({ type: ['string', 'number', 'boolean', 'null'] }, shape.description)
    case 'list': {
      const list: JsonSchema = { type: 'array', items: toJsonSchema(shape.items) }
      if (shape.minItems !== undefined) list.minItems = shape.minItems
      return describe(shape.single === true ? { anyOf: [toJsonSchema(shape.items), list] } : list, shape.description)
    }
    case 'object':
      return objectSchema(shape)
    case 'map': {
      const map: JsonSchema = { type: 'object', additionalProperties: toJsonSchema(shape.values) }
      if (shape.minEntries !== undefined) map.minProperties = shape.minEntries
      return describe(map, shape.description)
    }
    case 'tagged': {
      const names = Object.keys(shape.variants)
      const variants = Object.entries(shape.variants).map(([name, variant]) => ({
        if: { properties: { [shape.tag]: { const: name } }, required: [shape.tag] },
        then: objectSchema(variant, { [shape.tag]: { const: name } }, shape.tag),
      }))
      return describe(
        {
          type: 'object',
          required: [shape.tag],
          properties: { [shape.tag]: { type: 'string', enum: names } },
          allOf: variants,
        },
        shape.description,
      )
    }
    case 'either':
      return describe({ anyOf: shape.options.map(toJsonSchema) }, shape.description)
  }
}

export function createAgentJsonSchema(shape: ObjectShape): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'logx-agent configuration',
    ...objectSchema(shape),
  }
}
