#!/usr/bin/env node
'use strict'
require('../dist/agent/cli/main.js').main(process.argv.slice(2))
