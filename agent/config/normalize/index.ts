// Public surface of normalize/: written config -> the normalized types (../types.ts), section by
// section, and a transport target's options through the same normalizers. Files of agent/config
// import the module they need, never this index.
export { normalizeAgentConfig } from './normalize-config'
export { engineOptionsOf } from './engine-options'
export type { EngineParts, RecordingChannel } from './engine-options'
export { channelOptionKeys, readAlertOptions, readChannelOptions } from './target-options'
export type { OptionProblem, OptionsRead } from './target-options'
export { SANDBOX_MISSED_CALL_NUMBER } from './acknowledge'
export { DEFAULT_MULTILINE_TIMEOUT_MS } from './multiline'
export { agentIdOf } from './cluster'
