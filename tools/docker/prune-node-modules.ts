/**
 * Prunes a production `node_modules` down to what one built app can load, for its container image.
 *
 * `node tools/docker/prune-node-modules.ts <dir> <entry.js>...` (run through tools/dev/register.cjs):
 * `<dir>` holds the built app (dist/apps/<app>) and `node_modules` (from `npm ci --omit=dev`). Starting
 * from the entry files it follows relative `require`s through the compiled code, collects the packages
 * they name (in `require` or `require.resolve`), closes over each package's dependencies, optional
 * dependencies and installed peer dependencies (loaders such as TypeORM require their drivers that
 * way), then deletes every other
 * package and the files Node never loads from node_modules (TypeScript sources and declarations,
 * markdown). Node refuses to strip types under node_modules, so no package can need its `.ts` files.
 */
import { builtinModules } from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** `require("x")` and `require.resolve("x")` (packages whose files are served or read, not loaded). */
const REQUIRE_CALL = /\brequire(?:\.resolve)?\(\s*["']([^"']+)["']\s*\)/g;
const BUILTINS = new Set(builtinModules);
const DROPPED_FILE = /\.(d\.)?[mc]?ts$|\.tsbuildinfo$|\.(md|markdown)$/i;
const KEPT_DOC = /^(licen[cs]e|notice|copying)/i;

export interface PruneReport {
  kept: string[];
  removedPackages: number;
  removedFiles: number;
}

/** The package name a bare specifier refers to (`@scope/name/sub` -> `@scope/name`), or undefined for builtins. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0] ?? '')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [base, `${base}.js`, `${base}.cjs`, `${base}.json`, path.join(base, 'index.js')];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
}

/** Bare package names required by the code reachable from the entry files, following relative requires. */
export function collectEntryPackages(appDir: string, entries: readonly string[]): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const queue = entries.map((entry) => {
    const file = path.resolve(appDir, entry);
    if (!fs.existsSync(file)) throw new Error(`entry file not found: ${file}`);
    return file;
  });
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.endsWith('.js') && !file.endsWith('.cjs')) continue;
    for (const match of fs.readFileSync(file, 'utf8').matchAll(REQUIRE_CALL)) {
      const specifier = match[1] as string;
      if (specifier.startsWith('.')) {
        const target = resolveRelative(file, specifier);
        if (!target) throw new Error(`${path.relative(appDir, file)}: cannot resolve require("${specifier}")`);
        queue.push(target);
      } else {
        const name = packageOf(specifier);
        if (name) packages.add(name);
      }
    }
  }
  return packages;
}

/** Node's lookup of a package from a directory: its own node_modules, then each ancestor's, up to `root`. */
function findPackage(fromDir: string, name: string, root: string): string | undefined {
  let dir = fromDir;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root) return undefined;
    const parent = path.dirname(dir);
    if (parent === dir || !parent.startsWith(root)) return undefined;
    dir = parent;
  }
}

function dependencyNames(packageDir: string): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const fields = ['dependencies', 'optionalDependencies', 'peerDependencies'] as const;
  return fields.flatMap((field) => Object.keys((manifest[field] as Record<string, string> | undefined) ?? {}));
}

/**
 * Directories of every installed package the given names need, transitively. A required package that
 * is not installed is an error; a missing optional or peer dependency of a package is skipped.
 */
export function resolvePackageClosure(root: string, names: Iterable<string>): Set<string> {
  const kept = new Set<string>();
  const queue: string[] = [];
  for (const name of names) {
    const dir = findPackage(root, name, root);
    if (!dir)
      throw new Error(`the app requires "${name}", which is not installed in ${path.join(root, 'node_modules')}`);
    queue.push(dir);
  }
  while (queue.length > 0) {
    const dir = queue.pop() as string;
    if (kept.has(dir)) continue;
    kept.add(dir);
    for (const dep of dependencyNames(dir)) {
      const found = findPackage(dir, dep, root);
      if (found && !kept.has(found)) queue.push(found);
    }
  }
  return kept;
}

function packageDirsIn(nodeModules: string): string[] {
  if (!fs.existsSync(nodeModules)) return [];
  return fs.readdirSync(nodeModules, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(nodeModules, entry.name);
    if (entry.name.startsWith('@') && entry.isDirectory()) {
      return fs.readdirSync(full, { withFileTypes: true }).map((scoped) => path.join(full, scoped.name));
    }
    return [full];
  });
}

function stripFiles(dir: string): number {
  let removed = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') removed += stripFiles(full);
    } else if (DROPPED_FILE.test(entry.name) && !KEPT_DOC.test(entry.name)) {
      fs.rmSync(full, { force: true });
      removed += 1;
    }
  }
  return removed;
}

/** Deletes every package under `root/node_modules` not in `keep` (nested ones included) and unused files of the rest. */
export function pruneNodeModules(root: string, keep: ReadonlySet<string>): PruneReport {
  const report: PruneReport = { kept: [], removedPackages: 0, removedFiles: 0 };
  const visit = (nodeModules: string): void => {
    for (const dir of packageDirsIn(nodeModules)) {
      const base = path.basename(dir);
      if (base === '.bin' || base === '.package-lock.json' || base === '.cache') {
        fs.rmSync(dir, { recursive: true, force: true });
      } else if (keep.has(dir)) {
        report.kept.push(path.relative(root, dir));
        report.removedFiles += stripFiles(dir);
        visit(path.join(dir, 'node_modules'));
      } else {
        fs.rmSync(dir, { recursive: true, force: true });
        report.removedPackages += 1;
      }
    }
    for (const scope of fs.existsSync(nodeModules) ? fs.readdirSync(nodeModules) : []) {
      const full = path.join(nodeModules, scope);
      if (scope.startsWith('@') && fs.readdirSync(full).length === 0) fs.rmdirSync(full);
    }
  };
  visit(path.join(root, 'node_modules'));
  report.kept.sort();
  return report;
}

/** The whole pruning step: entry files -> packages -> closure -> delete the rest. */
export function pruneForEntries(root: string, entries: readonly string[]): PruneReport {
  const absoluteRoot = path.resolve(root);
  const closure = resolvePackageClosure(absoluteRoot, collectEntryPackages(absoluteRoot, entries));
  return pruneNodeModules(absoluteRoot, closure);
}

if (require.main === module) {
  const [root, ...entries] = process.argv.slice(2);
  if (!root || entries.length === 0) {
    console.error('usage: prune-node-modules.ts <dir with node_modules> <entry.js>...');
    process.exit(2);
  }
  const report = pruneForEntries(root, entries);
  console.log(
    `kept ${report.kept.length} packages, removed ${report.removedPackages} packages and ${report.removedFiles} files`,
  );
}
