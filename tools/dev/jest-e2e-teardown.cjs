const fs = require('node:fs');
const path = require('node:path');

/** App processes still running from this run's build (a suite that failed before stopping its stack). */
function strayApps(dir) {
  if (!fs.existsSync('/proc')) return [];
  return fs.readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return fs
        .readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split('\0')
        .some((arg) => arg.startsWith(dir + path.sep));
    } catch {
      return false;
    }
  });
}

module.exports = async () => {
  const dir = process.env.STACK_DIST_DIR;
  if (!dir || !dir.includes(`${path.sep}runs${path.sep}`)) return;
  for (const pid of strayApps(dir)) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // already gone
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
};
