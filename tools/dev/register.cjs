// Runtime hook: `node -r ./tools/dev/register.cjs apps/<app>/src/main.ts` compiles TypeScript on load with SWC.
const { addHook } = require('pirates');
const { transformSync } = require('@swc/core');
const { swcOptions } = require('./swc-options.cjs');

require('source-map-support/register');

addHook((code, filename) => transformSync(code, swcOptions({ filename })).code, {
  exts: ['.ts'],
  ignoreNodeModules: true,
});
