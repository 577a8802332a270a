#!/usr/bin/env node
'use strict'
require('../dist/agent/cli/code-cache.js').main(process.argv.slice(2))
