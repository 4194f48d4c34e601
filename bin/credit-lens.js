#!/usr/bin/env node
'use strict';
// The CLI is bundled by esbuild into dist/cli.js (run `npm run build` first in a source checkout).
require('../dist/cli.js').main();
