'use strict'
// pm2 apps: `pm2 start ecosystem.config.js`. pm2 loads this file with require().
const path = require('node:path')

module.exports = {
  apps: [
    {
      name: 'logx-agent',
      script: path.join(__dirname, 'bin', 'logx-agent.js'),
      args: ['run', '--config', path.join(__dirname, 'config', 'agent.yaml')],
      cwd: __dirname,
      exec_mode: 'fork',
      instances: 1,
      // The agent sends process.send('ready') once it serves; pm2 waits for it before counting it up.
      wait_ready: true,
      listen_timeout: 15000,
      // SIGINT first: the agent stops taking lines and drains what it holds within this time.
      kill_timeout: 15000,
      max_memory_restart: '200M',
      autorestart: true,
      exp_backoff_restart_delay: 200,
      merge_logs: true,
      env: { NODE_ENV: 'production' },
    },
  ],
}
