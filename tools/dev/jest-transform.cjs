// Jest transform: the same SWC options as the runtime hook and the build.
const { transformSync } = require('@swc/core');
const { swcOptions } = require('./swc-options.cjs');

module.exports = {
  process(src, filename) {
    const out = transformSync(src, swcOptions({ filename }));
    return { code: out.code, map: out.map };
  },
  getCacheKey(src, filename, options) {
    return require('node:crypto')
      .createHash('sha1')
      .update(src)
      .update(filename)
      .update(String(options.configString ?? ''))
      .update(require('node:fs').readFileSync(require('node:path').join(__dirname, '..', '..', '.swcrc')))
      .update(require('node:fs').readFileSync(require('node:path').join(__dirname, '..', '..', 'tsconfig.base.json')))
      .digest('hex');
  },
};
