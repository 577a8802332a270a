// ESM entry: the same factory as require('logx'), plus its statics as named exports.
import logx from '../dist/logx/index.js'

export default logx
export { logx }
// pino's named form: `import { pino } from 'pino'` becomes `import { pino } from 'logx'`.
export { logx as pino }
export const destination = logx.destination
export const transport = logx.transport
export const multistream = logx.multistream
export const levels = logx.levels
export const stdSerializers = logx.stdSerializers
export const stdTimeFunctions = logx.stdTimeFunctions
export const symbols = logx.symbols
export const version = logx.version
export const LogxError = logx.LogxError
