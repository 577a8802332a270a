'use strict'
// pm2 apps: `pm2 start ecosystem.config.js` here, or `pm2 start node_modules/logx/ecosystem.config.js` in
// an app that installed logx. pm2 loads this file with require() in the directory it was started from.
const path = require('node:path')

// The agent runs in the directory pm2 was started from (the app's): the config's relative paths
// (./logs, state_dir) resolve there, not inside node_modules. The bin is this package's own, found
// beside this file wherever it is installed.
const cwd = process.cwd()
// LOGX_CONFIG picks the config (relative to that directory); else config/agent.yaml there, where
// `logx-agent init` writes it.
const config = path.resolve(cwd, process.env.LOGX_CONFIG || path.join('config', 'agent.yaml'))

module.exports = {
  apps: [
    {
      name: 'logx-agent',
      script: path.join(__dirname, 'bin', 'logx-agent.js'),
      args: ['run', '--config', config],
      cwd,
      exec_mode: 'fork',
      // A 1 MB young generation (V8's default grows to 16 MB per semi-space): the agent allocates
      // short-lived objects per read buffer, and the smaller nursery lowers its peak RSS by about
      // 12 MB at no measured cost in throughput. --single-threaded: V8 compiles and collects on the
      // agent's own thread instead of background threads, which on a busy core only compete with
      // it; less CPU per MB read and a few MB less peak RSS (thread stacks and malloc arenas).
      // --optimize-for-size: V8's heuristics favour memory over speed. It keeps the agent at 60 MB
      // peak RSS on a 200 MB file (1-2 MB less) and costs CPU: 13-16% more instructions for a
      // just-started agent's first 50 MB, 2-3% once warm (bench/agent-instructions.js, callgrind).
      // Drop it where memory matters less than a fresh agent's throughput. BENCHMARKS.md has the
      // numbers; bench/agent.js and `npm start` use these same flags.
      node_args: ['--max-semi-space-size=1', '--single-threaded', '--optimize-for-size'],
      instances: 1,
      // The agent sends process.send('ready') once it serves; pm2 waits for it before counting it up.
      wait_ready: true,
      listen_timeout: 15000,
      // SIGINT first: the agent stops reading, writes its checkpoints and drains the outbox for at
      // most 10 s (DRAIN_TIMEOUT_MS in agent/cli/run-command.ts), inside this bound.
      kill_timeout: 15000,
      max_memory_restart: '200M',
      autorestart: true,
      exp_backoff_restart_delay: 200,
      merge_logs: true,
      env: { NODE_ENV: 'production' },
    },
  ],
}
