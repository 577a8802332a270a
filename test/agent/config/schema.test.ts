// config/agent.schema.json is generated from the loader's shape. These tests fail when the shipped
// file, the loader and the README disagree. Regenerate the file with:
//   LOGX_WRITE_SCHEMA=1 npx vitest run test/agent/config/schema.test.ts
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { agentShape } from '../../../agent/config/shape/agent-shape'
import { ConfigErrorCodes } from '../../../agent/config/errors'
import { createAgentJsonSchema, type JsonSchema } from '../../../agent/config/shape/json-schema'
import { objectKeys, type Shape } from '../../../agent/config/shape/shape'
import { fixtures } from './helpers'
import { schemaErrors } from './json-schema-check'

const root = join(__dirname, '../../..')
const schemaFile = join(root, 'config/agent.schema.json')
const generated = `${JSON.stringify(createAgentJsonSchema(agentShape), null, 2)}\n`
if (process.env.LOGX_WRITE_SCHEMA === '1') writeFileSync(schemaFile, generated)

/** Every key path the loader accepts: `messaging.api_key_file`, `channels.*.numbers`, `rules[].escalate[].after`. */
function shapeKeys(shape: Shape, at: string, out: Set<string>): Set<string> {
  switch (shape.kind) {
    case 'object':
      for (const key of objectKeys(shape)) out.add(`${at}.${key}`)
      for (const [key, field] of Object.entries(shape.fields)) shapeKeys(field.shape, `${at}.${key}`, out)
      break
    case 'tagged':
      out.add(`${at}.${shape.tag}`)
      for (const variant of Object.values(shape.variants)) shapeKeys(variant, at, out)
      break
    case 'list':
      shapeKeys(shape.items, `${at}[]`, out)
      if (shape.single === true) shapeKeys(shape.items, at, out)
      break
    case 'map':
      shapeKeys(shape.values, `${at}.*`, out)
      break
    case 'either':
      for (const option of shape.options) shapeKeys(option, at, out)
      break
    default:
      break
  }
  return out
}

/** The same paths read from a JSON Schema, without knowing how it was made. */
function schemaKeys(schema: JsonSchema, at: string, out: Set<string>): Set<string> {
  const properties = schema.properties as Record<string, JsonSchema> | undefined
  for (const [key, sub] of Object.entries(properties ?? {})) {
    out.add(`${at}.${key}`)
    schemaKeys(sub, `${at}.${key}`, out)
  }
  if (typeof schema.items === 'object') schemaKeys(schema.items as JsonSchema, `${at}[]`, out)
  if (typeof schema.additionalProperties === 'object')
    schemaKeys(schema.additionalProperties as JsonSchema, `${at}.*`, out)
  for (const keyword of ['anyOf', 'allOf', 'oneOf']) {
    for (const sub of (schema[keyword] as JsonSchema[] | undefined) ?? []) schemaKeys(sub, at, out)
  }
  if (typeof schema.then === 'object') schemaKeys(schema.then as JsonSchema, at, out)
  return out
}

describe('config/agent.schema.json', () => {
  const shipped = JSON.parse(readFileSync(schemaFile, 'utf8')) as JsonSchema

  it('accepts exactly the keys the loader accepts', () => {
    const loader = [...shapeKeys(agentShape, '', new Set())].sort()
    const schema = [...schemaKeys(shipped, '', new Set())].sort()
    expect(schema).toEqual(loader)
    expect(loader).toContain('.messaging.api_key_file')
    expect(loader).toContain('.channels.*.template_id')
    expect(loader).toContain('.rules[].escalate[].notify')
  })

  it('is the generated schema, byte for byte (regenerate with LOGX_WRITE_SCHEMA=1)', () => {
    expect(readFileSync(schemaFile, 'utf8')).toBe(generated)
  })

  it('accepts the shipped configs, the examples and the good fixtures, as an editor would see them', () => {
    const files = [
      join(root, 'config/agent.yaml'),
      ...readdirSync(join(root, 'config/examples')).map((f) => join(root, 'config/examples', f)),
      ...readdirSync(join(fixtures, 'good')).map((f) => join(fixtures, 'good', f)),
    ]
    for (const file of files)
      expect(schemaErrors(shipped, parse(readFileSync(file, 'utf8')) as unknown), file).toEqual([])
  })

  it('flags what the loader flags for keys and types', () => {
    const bad = [
      'unknown-key-top',
      'unknown-key-nested',
      'channel-type',
      'channel-fields',
      'types',
      'durations',
      'people',
      'acknowledge',
      'schedules',
      'routing',
    ]
    for (const name of bad) {
      const doc = parse(readFileSync(join(fixtures, 'bad', `${name}.yaml`), 'utf8')) as unknown
      expect(schemaErrors(shipped, doc), name).not.toEqual([])
    }
  })

  it('forbids unknown keys everywhere an object is described', () => {
    const open: string[] = []
    const walk = (value: unknown, at: string): void => {
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}/${i}`))
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return
      const schema = value as JsonSchema
      // A tagged union closes each variant in its `then`; `if` only tests the tag.
      if (schema.properties !== undefined && schema.allOf === undefined && schema.additionalProperties !== false)
        open.push(at)
      for (const [key, sub] of Object.entries(schema)) if (key !== 'if') walk(sub, `${at}/${key}`)
    }
    walk(shipped, '#')
    expect(open).toEqual([])
  })
})

describe('the configuration docs', () => {
  const readme = readFileSync(join(root, 'agent/config/README.md'), 'utf8')
  const guide = readFileSync(join(root, 'docs/configuration.md'), 'utf8')
  // The generated reference lists every key by construction; the prose before it must explain each too.
  const prose = guide.slice(0, guide.indexOf('## Reference: every key'))

  it('explains every key in the prose of docs/configuration.md, not only in the generated reference', () => {
    const keys = new Set(
      [...shapeKeys(agentShape, '', new Set())].map(
        (path) =>
          path
            .split(/[.[\]*]+/)
            .filter(Boolean)
            .pop() as string,
      ),
    )
    expect(prose.length).toBeGreaterThan(0)
    const missing = [...keys].filter((key) => !prose.includes(`\`${key}\``))
    expect(missing).toEqual([])
  })

  it('lists every error code in agent/config/README.md', () => {
    const missing = Object.values(ConfigErrorCodes).filter((code) => !readme.includes(code))
    expect(missing).toEqual([])
  })
})
