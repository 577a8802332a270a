// Where target names that are not plain module paths come from. logx knows only its own
// `logx/file`; every other named target (the alert targets among them) is whatever the installed
// `logx` package exports under `logx/targets/<name>` in its package.json. The package that ships
// those targets decides where their files live, so this folder can be published on its own.

import { join } from 'node:path'

const ownTargets: Readonly<Record<string, string>> = Object.freeze({
  'logx/file': join(__dirname, 'file-target.js'),
})

/** The file of a target that is part of the logger itself, or undefined. */
export function builtinTargetPath(name: string): string | undefined {
  return Object.hasOwn(ownTargets, name) ? ownTargets[name] : undefined
}

// A subpath export is an exact key, but a name is still kept to one plain segment so that what a
// user writes cannot walk to another export.
const exportableName = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/**
 * The file that this package exports as `logx/targets/<name>`, or undefined when it exports none.
 * Resolved from this file, so it finds the package logx itself was loaded from, wherever the app is.
 */
export function packageTargetPath(name: string): string | undefined {
  if (!exportableName.test(name)) return undefined
  try {
    return require.resolve(`logx/targets/${name}`)
  } catch {
    // Not exported (or logx runs outside its package, e.g. bundled): the caller reports the name.
    return undefined
  }
}
