#!/usr/bin/env node
// Compiles an app (or every app with --all) with the libs and the migration command into dist/, using
// the same SWC options as the runtime hook and jest. Output: dist/apps/<app>/apps/<app>/src/main.js.
const fs = require('node:fs');
const path = require('node:path');
const { transformFileSync } = require('@swc/core');
const { root, swcOptions } = require('./swc-options.cjs');
const { bundleBrowserScript, BUNDLE_ENTRY, BROWSER_DIR } = require('./browser-bundle.cjs');

const TEST_FILE = /\.(spec|int-spec|e2e-spec)\.ts$/;
/** Test kits beside the code (`src/testing/`) are for the tests only; an image never contains them. */
const TEST_KIT_DIR = `${path.sep}testing${path.sep}`;
const LIB_IMPORT = /(?:from\s+|require\(\s*|import\(\s*)['"](@paper\/[\w-]+)['"]/g;

function listFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

/** The libs' source roots by import name (`@paper/x` -> libs/.../src), from tsconfig.base.json's paths. */
function libRoots() {
  const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));
  return new Map(
    Object.entries(compilerOptions.paths).map(([name, [entry]]) => [name, path.dirname(path.join(root, entry))]),
  );
}

const shipped = (file) => file.endsWith('.ts') && !TEST_FILE.test(file) && !file.includes(TEST_KIT_DIR);

/** The source roots an app's runtime code reaches: its own, the migration command's, and the libs they import. */
function sourceRoots(app) {
  const libs = libRoots();
  const roots = [path.join(root, 'apps', app, 'src'), path.join(root, 'tools', 'db')];
  for (let i = 0; i < roots.length; i += 1) {
    for (const file of listFiles(roots[i]).filter(shipped)) {
      for (const [, name] of fs.readFileSync(file, 'utf8').matchAll(LIB_IMPORT)) {
        const dir = libs.get(name);
        if (!dir)
          throw new Error(`${path.relative(root, file)} imports ${name}, which tsconfig.base.json does not map`);
        if (!roots.includes(dir)) roots.push(dir);
      }
    }
  }
  return roots;
}

function buildInto(outDir, roots) {
  let count = 0;
  for (const dir of roots) {
    for (const file of listFiles(dir)) {
      const rel = path.relative(root, file);
      const target = path.join(outDir, rel);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      if (BUNDLE_ENTRY.test(file)) {
        fs.writeFileSync(target.replace(/\.ts$/, '.js'), bundleBrowserScript(file));
        count += 1;
      } else if (file.endsWith('.ts') && !file.endsWith('.d.ts')) {
        if (!shipped(file) || BROWSER_DIR.test(file)) continue;
        const out = transformFileSync(file, swcOptions({ filename: file, sourceMaps: true }));
        const js = target.replace(/\.ts$/, '.js');
        const mapName = `${path.basename(js)}.map`;
        fs.writeFileSync(js, `${out.code}\n//# sourceMappingURL=${mapName}\n`);
        if (out.map) fs.writeFileSync(`${js}.map`, out.map);
        count += 1;
      } else if (!file.endsWith('.ts')) {
        fs.copyFileSync(file, target);
      }
    }
  }
  return count;
}

function buildApp(app, outDir = path.join(root, 'dist', 'apps', app)) {
  if (!fs.existsSync(path.join(root, 'apps', app, 'src', 'main.ts'))) {
    throw new Error(`unknown app "${app}" (no apps/${app}/src/main.ts)`);
  }
  fs.rmSync(outDir, { recursive: true, force: true });
  return buildInto(outDir, sourceRoots(app));
}

/** Builds every app into one tree (dist/stack) so the local stack compiles shared libs once. */
function buildAll(outDir = path.join(root, 'dist', 'stack')) {
  const apps = fs
    .readdirSync(path.join(root, 'apps'))
    .filter((a) => fs.existsSync(path.join(root, 'apps', a, 'src', 'main.ts')));
  fs.rmSync(outDir, { recursive: true, force: true });
  const roots = new Set(apps.flatMap((a) => sourceRoots(a)));
  return { apps, files: buildInto(outDir, [...roots]) };
}

module.exports = { buildApp, buildAll, sourceRoots };

if (require.main === module) {
  const arg = process.argv[2];
  const started = Date.now();
  if (!arg) {
    console.error('usage: build-app.cjs <app> | --all');
    process.exit(2);
  }
  const result = arg === '--all' ? buildAll() : { apps: [arg], files: buildApp(arg) };
  console.log(`built ${result.apps.join(', ')} (${result.files} files) in ${Date.now() - started} ms`);
}
