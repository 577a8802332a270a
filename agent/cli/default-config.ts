// Where every command looks for the agent's config when none is named: `run`, `validate`, `init` writes it,
// `service install` runs it, and the commands that talk to the running agent read its state_dir from it.
export const DEFAULT_CONFIG = 'config/agent.yaml'
