// The configuration reference (docs/configuration.md) generated from the shape, as the JSON Schema is:
// the keys a user reads about are the keys the checker takes, with the same descriptions and defaults.
// One table per top-level key; nested keys are written as paths (`channels.<name>.numbers`,
// `rules[].escalate[].after`), and a tagged object lists each variant's keys under `type: <variant>`.
import { describeShape, fileKey, type Field, type ObjectShape, type Shape } from './shape'

interface ReferenceRow {
  readonly path: string
  readonly type: string
  readonly required: boolean
  readonly defaultValue: unknown
  readonly description: string
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')
}

function typeOf(shape: Shape): string {
  if (shape.kind === 'list') return `list of ${typeOf(shape.items)}`
  if (shape.kind === 'string' && shape.secret === true) return 'a string (secret)'
  if (shape.kind === 'integer' && (shape.min !== undefined || shape.max !== undefined)) {
    return `an integer ${shape.min ?? '…'}..${shape.max ?? '…'}`
  }
  return describeShape(shape)
}

/** The path below which a shape's own keys are written: list items get `[]`, map values `<name>`. */
function childPath(path: string, shape: Shape): { path: string; shape: Shape } {
  if (shape.kind === 'list') return childPath(`${path}[]`, shape.items)
  if (shape.kind === 'map') return childPath(`${path}.<name>`, shape.values)
  return { path, shape }
}

function fieldRows(path: string, field: Field, rows: ReferenceRow[]): void {
  const { shape } = field
  const description = field.description
  rows.push({ path, type: typeOf(shape), required: field.required === true, defaultValue: field.default, description })
  if (shape.kind === 'string' && shape.secret === true) {
    const readFrom = `the file \`${path}\` is read from, instead of writing it in the config`
    rows.push({
      path: fileKey(path),
      type: 'a file path',
      required: false,
      defaultValue: undefined,
      description: readFrom,
    })
  }
  nestedRows(childPath(path, shape), rows)
}

function nestedRows({ path, shape }: { path: string; shape: Shape }, rows: ReferenceRow[]): void {
  if (shape.kind === 'object') objectRows(path, shape, rows)
  if (shape.kind === 'tagged') {
    for (const [name, variant] of Object.entries(shape.variants)) {
      const description = `selects the keys below marked \`${shape.tag}: ${name}\``
      rows.push({
        path: `${path}.${shape.tag}: ${name}`,
        type: 'variant',
        required: false,
        defaultValue: undefined,
        description,
      })
      objectRows(path, variant, rows)
    }
  }
  if (shape.kind === 'either') {
    for (const option of shape.options) nestedRows(childPath(path, option), rows)
  }
}

function objectRows(path: string, shape: ObjectShape, rows: ReferenceRow[]): void {
  for (const [key, field] of Object.entries(shape.fields)) fieldRows(`${path}.${key}`, field, rows)
}

function tableOf(rows: readonly ReferenceRow[]): string {
  const lines = ['| key | type | required | default | what it does |', '|---|---|---|---|---|']
  for (const row of rows) {
    const fallback = row.defaultValue === undefined ? '' : `\`${JSON.stringify(row.defaultValue)}\``
    const required = row.required ? 'yes' : ''
    lines.push(`| \`${row.path}\` | ${cell(row.type)} | ${required} | ${cell(fallback)} | ${cell(row.description)} |`)
  }
  return lines.join('\n')
}

/** The reference block of docs/configuration.md: one section per top-level key of `root`. */
export function configReference(root: ObjectShape): string {
  const sections: string[] = []
  for (const [key, field] of Object.entries(root.fields)) {
    const rows: ReferenceRow[] = []
    fieldRows(key, field, rows)
    sections.push(`### \`${key}\`\n\n${cell(field.description)}\n\n${tableOf(rows)}`)
  }
  return `${sections.join('\n\n')}\n`
}
