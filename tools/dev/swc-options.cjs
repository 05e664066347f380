// SWC options shared by the runtime hook, the jest transform and the build: one source of truth.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');

function readPaths() {
  const tsconfig = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));
  const paths = {};
  for (const [alias, targets] of Object.entries(tsconfig.compilerOptions.paths ?? {})) {
    paths[alias] = targets.map((t) => t.replace(/^\.\//, ''));
  }
  return paths;
}

function swcOptions({ filename, sourceMaps = 'inline' } = {}) {
  const base = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));
  delete base.$schema;
  return {
    ...base,
    swcrc: false,
    filename,
    sourceMaps,
    jsc: { ...base.jsc, baseUrl: root, paths: readPaths() },
  };
}

module.exports = { root, swcOptions, readPaths };
