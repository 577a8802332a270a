// Public surface of shape/: the one declarative shape of the config, and what is made from it (the
// strict checker, the JSON Schema, the reference docs). Files of agent/config import the module they
// need, never this index.
export { agentShape } from './agent-shape'
export { channelShape } from './channel-shape'
export { personShape } from './people-shape'
export { alertOptionsShape, ruleShape, silenceShape, targetRuleShape } from './rule-shape'
export { sourceShape } from './source-shape'
export { objectKeys } from './shape'
export type { ObjectShape, Shape } from './shape'
export { checkShape } from './check-shape'
export { createAgentJsonSchema, toJsonSchema } from './json-schema'
export type { JsonSchema } from './json-schema'
export { configReference } from './reference-docs'
export { formatPath } from './config-path'
export { didYouMean, editDistance } from './did-you-mean'
export type * from './written-types'
