/**
 * prune-node-modules on a fixture tree: a built app requiring two packages through relative requires,
 * hoisted and nested dependencies, an installed and a missing peer, unrelated packages, and files
 * Node never loads from node_modules.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { collectEntryPackages, packageOf, pruneForEntries } from './prune-node-modules';

function write(root: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }
}

const pkg = (name: string, fields: Record<string, Record<string, string>> = {}): string =>
  JSON.stringify({ name, version: '1.0.0', ...fields });

describe('prune-node-modules', () => {
  let root: string;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'prune-spec-'));
    write(root, {
      'apps/api/src/main.js': 'require("./app/module");\nconst http = require("node:http");\nrequire("fs");',
      'apps/api/src/app/module.js':
        'const core = require("@scope/core");\nconst lib = require("../../../../libs/shared/src");',
      'libs/shared/src/index.js':
        'module.exports = require("orm/sub/path");\nconst assets = require.resolve("ui-assets/package.json");',
      'libs/unused/src/index.js': 'require("unused-driver");',
      'tools/db/migrate.js': 'require("orm");',
      'node_modules/@scope/core/package.json': pkg('@scope/core', {
        dependencies: { rxjs: '^7' },
        peerDependencies: { 'optional-peer': '*' },
      }),
      'node_modules/@scope/core/index.js': '',
      'node_modules/@scope/core/index.d.ts': 'export {};',
      'node_modules/@scope/core/src/index.ts': 'export {};',
      'node_modules/@scope/core/README.md': '# core',
      'node_modules/@scope/core/LICENSE.md': 'MIT',
      'node_modules/rxjs/package.json': pkg('rxjs', { dependencies: { tslib: '^2' } }),
      'node_modules/tslib/package.json': pkg('tslib'),
      'node_modules/orm/package.json': pkg('orm', {
        dependencies: { tslib: '^1' },
        peerDependencies: { pg: '*', mysql: '*' },
      }),
      'node_modules/orm/node_modules/tslib/package.json': pkg('tslib'),
      'node_modules/pg/package.json': pkg('pg'),
      'node_modules/ui-assets/package.json': pkg('ui-assets'),
      'node_modules/unused-driver/package.json': pkg('unused-driver'),
      'node_modules/@other/tool/package.json': pkg('@other/tool'),
      'node_modules/.bin/tool': '#!/bin/sh',
    });
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('names the package of a bare specifier and ignores builtins', () => {
    expect(['@scope/core/sub', 'orm/sub/path', 'node:http', 'fs', 'fs/promises'].map(packageOf)).toEqual([
      '@scope/core',
      'orm',
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('collects the packages required by the code reachable from the entries only', () => {
    expect([...collectEntryPackages(root, ['apps/api/src/main.js', 'tools/db/migrate.js'])].sort()).toEqual([
      '@scope/core',
      'orm',
      'ui-assets',
    ]);
  });

  it('keeps the closure over dependencies and installed peers, deletes the rest and unloadable files', () => {
    const report = pruneForEntries(root, ['apps/api/src/main.js', 'tools/db/migrate.js']);
    expect(report.kept).toEqual([
      'node_modules/@scope/core',
      'node_modules/orm',
      'node_modules/orm/node_modules/tslib',
      'node_modules/pg',
      'node_modules/rxjs',
      'node_modules/tslib',
      'node_modules/ui-assets',
    ]);
    expect(report.removedPackages).toBe(2);
    const left = (p: string): boolean => fs.existsSync(path.join(root, p));
    expect(['node_modules/unused-driver', 'node_modules/@other', 'node_modules/.bin'].filter(left)).toEqual([]);
    expect(
      [
        'node_modules/@scope/core/index.d.ts',
        'node_modules/@scope/core/src/index.ts',
        'node_modules/@scope/core/README.md',
      ].filter(left),
    ).toEqual([]);
    expect(
      ['node_modules/@scope/core/index.js', 'node_modules/@scope/core/LICENSE.md', 'apps/api/src/main.js'].every(left),
    ).toBe(true);
  });

  it('fails loudly when the app requires a package that is not installed or a file that does not exist', () => {
    fs.rmSync(path.join(root, 'node_modules/orm'), { recursive: true });
    expect(() => pruneForEntries(root, ['tools/db/migrate.js'])).toThrow(
      'the app requires "orm", which is not installed',
    );
    write(root, { 'apps/api/src/broken.js': 'require("./missing");' });
    expect(() => collectEntryPackages(root, ['apps/api/src/broken.js'])).toThrow('cannot resolve require("./missing")');
    expect(() => collectEntryPackages(root, ['apps/none/main.js'])).toThrow('entry file not found');
  });
});
