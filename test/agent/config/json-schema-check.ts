// Just enough of JSON Schema draft-07 to run the generated schema over YAML documents: the keywords
// json-schema.ts emits. `format` is an annotation here, as in most editors.
type Schema = Record<string, unknown>

function typeOk(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value)
    case 'array':
      return Array.isArray(value)
    case 'integer':
      return Number.isInteger(value)
    case 'null':
      return value === null
    default:
      return typeof value === type
  }
}

/** Paths (JSON pointers) where the value breaks the schema; empty when it conforms. */
export function schemaErrors(schema: Schema, value: unknown, at = ''): string[] {
  const errors: string[] = []
  const fail = (why: string): number => errors.push(`${at || '/'}: ${why}`)
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string]
    if (!types.some((t) => typeOk(t, value))) return [`${at || '/'}: expected ${types.join('|')}`]
  }
  if ('const' in schema && value !== schema.const) fail(`expected ${String(schema.const)}`)
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) fail('not in enum')
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) fail('too short')
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(value)) fail('pattern')
  }
  if (typeof value === 'number' && typeof schema.minimum === 'number' && value < schema.minimum) fail('below minimum')
  if (typeof value === 'number' && typeof schema.maximum === 'number' && value > schema.maximum) fail('above maximum')
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) fail('too few items')
    if (typeof schema.items === 'object')
      value.forEach((item, i) => errors.push(...schemaErrors(schema.items as Schema, item, `${at}/${i}`)))
  }
  if (typeOk('object', value)) {
    const object = value as Record<string, unknown>
    const properties = (schema.properties ?? {}) as Record<string, Schema>
    for (const key of (schema.required as string[] | undefined) ?? []) if (!(key in object)) fail(`missing ${key}`)
    if (typeof schema.minProperties === 'number' && Object.keys(object).length < schema.minProperties)
      fail('too few properties')
    for (const [key, item] of Object.entries(object)) {
      if (key in properties) errors.push(...schemaErrors(properties[key] as Schema, item, `${at}/${key}`))
      else if (schema.additionalProperties === false) fail(`unknown key ${key}`)
      else if (typeof schema.additionalProperties === 'object')
        errors.push(...schemaErrors(schema.additionalProperties as Schema, item, `${at}/${key}`))
    }
  }
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((s) => schemaErrors(s as Schema, value, at).length === 0))
    fail('matches no anyOf branch')
  for (const sub of (schema.allOf as Schema[] | undefined) ?? []) {
    if (sub.if !== undefined) {
      if (schemaErrors(sub.if as Schema, value, at).length === 0 && sub.then !== undefined)
        errors.push(...schemaErrors(sub.then as Schema, value, at))
    } else {
      errors.push(...schemaErrors(sub, value, at))
    }
  }
  return errors
}
