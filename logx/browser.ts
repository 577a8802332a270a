// The browser build of logx (package.json "browser" field). Browsers have no file descriptors and
// no worker threads, so lines go to the console (or to `browser.write`) as arguments or as objects.
// The build is this file and the browser-*.ts files beside it (settings, logger, serializers, the
// asObject form, errors). They import only each other, the version constant and types, so they run
// after a minimal CommonJS wrap: test/logx/browser.int.test.ts serves exactly that set to Chromium.

import { logxError } from './browser-error.js'
import { Logger } from './browser-logger.js'
import { stdSerializers } from './browser-serializers.js'
import { buildShared, builtinValues, levelsOf, stdTimeFunctions } from './browser-settings.js'
import type { BrowserLogger, BrowserLoggerOptions } from './browser-types.js'
import { version } from './version.js'

/** Creates a browser logger. A destination argument is accepted for isomorphic code and ignored. */
function logx(options: BrowserLoggerOptions = {}, _destination?: unknown): BrowserLogger {
  const shared = buildShared(options)
  const disabled = options.enabled === false || options.browser?.disabled === true
  const level = disabled ? 'silent' : (options.level ?? (options.useOnlyCustomLevels === true ? undefined : 'info'))
  if (level === undefined) {
    throw logxError(
      'LOGX_ERR_DEFAULT_LEVEL_NOT_FOUND',
      'useOnlyCustomLevels needs `level` set to a custom level',
      'level',
    )
  }
  const serializers = { ...options.serializers }
  return new Logger(shared, [], serializers, level) as unknown as BrowserLogger
}

logx.levels = levelsOf({ ...builtinValues })
logx.stdSerializers = stdSerializers
logx.stdTimeFunctions = stdTimeFunctions
logx.version = version
logx.symbols = {
  serializersSym: Symbol.for('logx.serializers'),
  needsMetadataGsym: Symbol.for('logx.metadata'),
}
logx.logx = logx
logx.default = logx

export = logx
