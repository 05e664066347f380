// Builds every app once per test run into its own directory, so parallel runs never share a build.
const path = require('node:path');
const fs = require('node:fs');

module.exports = async () => {
  if (process.env.STACK_DIST_DIR && fs.existsSync(process.env.STACK_DIST_DIR)) return;
  const { buildAll } = require('./build-app.cjs');
  const dir = path.join(__dirname, '..', '..', 'dist', 'runs', `${process.pid}`);
  buildAll(dir);
  process.env.STACK_DIST_DIR = dir;
};
