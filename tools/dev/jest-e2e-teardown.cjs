const fs = require('node:fs');
const path = require('node:path');

module.exports = async () => {
  const dir = process.env.STACK_DIST_DIR;
  if (dir && dir.includes(`${path.sep}runs${path.sep}`)) fs.rmSync(dir, { recursive: true, force: true });
};
