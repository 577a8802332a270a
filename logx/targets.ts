// The one table of built-in transport targets. A new built-in target is registered here and
// nowhere else: the name users write in `target` maps to a compiled file of this package.

import { join } from 'node:path'

// This file compiles to dist/logx/targets.js; paths below are relative to dist/.
const distRoot = join(__dirname, '..')

function agentTransport(folder: string): string {
  return join(distRoot, 'agent', 'transports', folder, 'index.js')
}

export const builtinTargets: Readonly<Record<string, string>> = Object.freeze({
  'logx/file': join(distRoot, 'logx', 'file-target.js'),
  'logx-tail-filter': agentTransport('tail-filter'),
  'logx-sms-alert': agentTransport('sms'),
  'logx-chat-alert': agentTransport('chat'),
  'logx-mail-alert': agentTransport('mail'),
  'logx-voice-alert': agentTransport('voice'),
  'logx-incident': agentTransport('incident'),
})

/** The compiled file of a built-in target, or undefined when `name` is not built in. */
export function builtinTargetPath(name: string): string | undefined {
  return Object.hasOwn(builtinTargets, name) ? builtinTargets[name] : undefined
}
