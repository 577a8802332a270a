// docs/configuration.md's key reference is generated from the loader's shape (agent/config/shape/
// reference-docs.ts): this test fails when the two differ, so a key added to the shape is a key
// documented. Regenerate the block with:
//   LOGX_WRITE_DOCS=1 npx vitest run test/docs/config-reference.test.ts
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { agentShape } from '../../agent/config/shape/agent-shape'
import { configReference } from '../../agent/config/shape/reference-docs'

const file = join(__dirname, '..', '..', 'docs', 'configuration.md')
const BEGIN = '<!-- reference: generated from agent/config/shape; see test/docs/config-reference.test.ts -->'
const END = '<!-- end of reference -->'

function withReference(text: string, reference: string): string {
  const begin = text.indexOf(BEGIN)
  const end = text.indexOf(END)
  if (begin === -1 || end < begin) throw new Error(`${file}: the markers ${BEGIN} ... ${END} are missing`)
  return `${text.slice(0, begin + BEGIN.length)}\n\n${reference}\n${text.slice(end)}`
}

describe('docs/configuration.md', () => {
  const reference = configReference(agentShape)
  const written = readFileSync(file, 'utf8')
  if (process.env.LOGX_WRITE_DOCS === '1') writeFileSync(file, withReference(written, reference))

  it('holds the key reference generated from the shape', () => {
    expect(readFileSync(file, 'utf8')).toBe(withReference(written, reference))
  })

  it('documents a key the shape has, with its description and default', () => {
    expect(reference).toMatch(/^\| `messaging\.base_url` \| /m)
    expect(reference).toMatch(/^\| `rules\[\]\.escalate\[\]\.after` \| a duration \| /m)
    expect(reference).toContain('`messaging.api_key_file`')
  })
})
