// Runs one case (an option set and a call sequence) on one library and records everything a
// user can observe: each line written, each level-change event, each value read back, and the
// class and message of each error thrown.
import { materialize } from './values'
import { buildOptions, buildRedact, buildSerializers, type Library } from './options'
import type { ChildOptionsRecipe, Op } from './calls'

export interface CaseRecipe {
  options: Record<string, unknown>
  ops: Op[]
  /** The pinned clock (Date.now) for this case. */
  now: number
}

export interface Outcome {
  transcript: string[]
  /** Indexes of log calls that threw (pino throws from a log call where logx must not). */
  threwAt: number[]
}

function describeThrow(err: unknown): string {
  if (!(err instanceof Error)) return `T ${typeof err}: ${String(err)}`
  const kind = err instanceof TypeError ? 'TypeError' : err instanceof RangeError ? 'RangeError' : 'Error'
  return `T ${kind}: ${err.message}`
}

function buildChildOptions(recipe: ChildOptionsRecipe, lib: Library): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (recipe.level !== undefined) out.level = recipe.level
  if (recipe.serializers !== undefined) out.serializers = buildSerializers(recipe.serializers, lib)
  if (recipe.redact !== undefined) out.redact = buildRedact(recipe.redact)
  if (recipe.msgPrefix !== undefined) out.msgPrefix = recipe.msgPrefix
  if (recipe.customLevels !== undefined) out.customLevels = { ...recipe.customLevels }
  if (recipe.formatters !== undefined) {
    const formatters: Record<string, unknown> = {}
    if (recipe.formatters.bindings) formatters.bindings = (b: object) => ({ ...b, tag: 1 })
    if (recipe.formatters.level) formatters.level = (label: string) => ({ level: label })
    if (recipe.formatters.log) formatters.log = (o: object) => ({ ...o, flagged: true })
    out.formatters = formatters
  }
  return out
}

function read(logger: any, op: Extract<Op, { op: 'read' }>): string {
  switch (op.what) {
    case 'bindings':
      return 'R ' + JSON.stringify(logger.bindings())
    case 'level':
      return 'R ' + String(logger.level)
    case 'levelVal':
      return 'R ' + String(logger.levelVal)
    case 'isLevelEnabled':
      return 'R ' + String(logger.isLevelEnabled(op.level))
  }
}

function apply(op: Op, logger: any, loggers: any[], lib: Library, transcript: string[]): void {
  switch (op.op) {
    case 'log': {
      const args = op.args.map(materialize)
      logger[op.level](...args)
      return
    }
    case 'child': {
      const bindings = materialize(op.bindings)
      const child =
        op.options === undefined ? logger.child(bindings) : logger.child(bindings, buildChildOptions(op.options, lib))
      loggers.push(child)
      return
    }
    case 'setBindings':
      logger.setBindings(materialize(op.bindings))
      return
    case 'setLevel':
      logger.level = op.level
      return
    case 'read':
      transcript.push(read(logger, op))
  }
}

/**
 * Runs the case. `pinoThrewAt` (given when running logx) lists the log calls pino threw from:
 * there logx writes instead (a log call never throws), so what it wrote for them is replaced by
 * the same marker, and only a throw from logx itself is a difference.
 */
export function runCase(lib: Library, recipe: CaseRecipe, pinoThrewAt?: number[]): Outcome {
  const transcript: string[] = []
  const threwAt: number[] = []
  const sink = { write: (line: string) => void transcript.push('W ' + line) }
  let root: any
  try {
    root = lib.factory(buildOptions(recipe.options, lib), sink)
  } catch (err) {
    transcript.push(describeThrow(err))
    return { transcript, threwAt }
  }
  const loggers: any[] = [root]
  root.on(
    'level-change',
    (label: unknown, value: unknown, previous: unknown, previousValue: unknown, from: unknown) => {
      transcript.push(
        `E ${String(label)} ${String(value)} ${String(previous)} ${String(previousValue)} ${loggers.indexOf(from)}`,
      )
    },
  )
  recipe.ops.forEach((op, index) => {
    const logger = loggers[op.on % loggers.length]
    const mark = transcript.length
    const count = loggers.length
    let thrown: string | undefined
    let isLogCall = op.op === 'log' && typeof logger[op.level] === 'function'
    try {
      apply(op, logger, loggers, lib, transcript)
    } catch (err) {
      thrown = describeThrow(err)
      isLogCall ||= (err as { fromLogCall?: boolean }).fromLogCall === true
      transcript.push(thrown)
    }
    if (lib.name === 'pino' && isLogCall && thrown !== undefined) {
      threwAt.push(index)
      transcript.length = mark
      transcript.push(PINO_THREW)
    } else if (pinoThrewAt?.includes(index)) {
      // pino made no child when its onChild threw, so the loggers stay as pino's.
      loggers.length = count
      transcript.length = mark
      transcript.push(thrown === undefined ? PINO_THREW : 'logx threw: ' + thrown)
    }
  })
  return { transcript, threwAt }
}

const PINO_THREW = 'X the log call threw in pino'
