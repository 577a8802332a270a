// Public surface of load/: reading a config file (YAML with positions, ${ENV}, *_file secrets) and
// running the stages in order. Files of agent/config import the module they need, never this index.
export { loadAgentConfig, parseAgentConfig, readAgentConfig } from './load-config'
export type { ConfigResult, LoadConfigOptions } from './load-config'
export { interpolateEnv } from './env-reference'
export type { Env } from './env-reference'
export { readYamlSource } from './yaml-source'
export type { ConfigSource } from './check-context'
