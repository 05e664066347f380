/**
 * Lints docker/Dockerfile (no Docker engine is needed) and checks the Nx docker-build target of every
 * app. The rule tests feed small broken Dockerfiles to show each rule fires.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dockerignored, lintDockerfile, type LintContext, parseDockerfile } from './dockerfile-lint';
import { SERVICE_NODE_OPTIONS } from '@paper/dev-stack';

const ROOT = path.resolve(__dirname, '..', '..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');
const context: LintContext = {
  root: ROOT,
  dockerignore: read('.dockerignore').split('\n'),
  nodeVersion: read('.nvmrc').trim(),
};
const APPS = fs
  .readdirSync(path.join(ROOT, 'apps'))
  .filter((a) => fs.existsSync(path.join(ROOT, 'apps', a, 'src', 'main.ts')));

const GOOD = `# syntax=docker/dockerfile:1.7
ARG NODE_IMAGE=node:${context.nodeVersion}-bookworm-slim
FROM \${NODE_IMAGE} AS deps
WORKDIR /deps
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-save --ignore-scripts
FROM \${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /deps/node_modules ./node_modules
USER 1000:1000
EXPOSE 8080
HEALTHCHECK CMD ["node", "-e", "fetch('http://127.0.0.1:8080/livez')"]
CMD ["node", "main.js"]
`;

describe('docker/Dockerfile', () => {
  it('passes every lint rule', () => {
    expect(lintDockerfile(read('docker/Dockerfile'), context)).toEqual([]);
  });

  it('builds in named stages from one pinned Node image matching .nvmrc, ending in the runtime stage', () => {
    const { stages, directives } = parseDockerfile(read('docker/Dockerfile'));
    expect(directives['syntax']).toMatch(/^docker\/dockerfile:1/);
    expect(stages.map((s) => s.name)).toEqual(['deps', 'build', 'runtime']);
    expect(new Set(stages.map((s) => s.image))).toEqual(new Set([`node:${context.nodeVersion}-bookworm-slim`]));
  });

  it("builds the app with nx, prunes production dependencies to it, and starts it with the services' V8 limits", () => {
    const { stages } = parseDockerfile(read('docker/Dockerfile'));
    const build = stages[1]?.instructions.map((i) => i.args).join('\n') ?? '';
    expect(build).toContain('npx nx build "${APP}"');
    expect(build).toContain('tools/docker/prune-node-modules.ts /out "apps/${APP}/src/main.js" tools/db/migrate.js');
    const runtime = stages[2]?.instructions ?? [];
    expect(runtime.find((i) => i.keyword === 'ENTRYPOINT')?.args).toBe('["node"]');
    const env = runtime
      .filter((i) => i.keyword === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toContain(`NODE_OPTIONS="${SERVICE_NODE_OPTIONS.join(' ')}"`);
    expect(runtime.find((i) => i.keyword === 'CMD')?.args).toBe('["main.js"]');
  });

  it('keeps dependencies, build output, VCS data and local env files out of the build context', () => {
    for (const excluded of [
      'node_modules',
      'libs/contracts/node_modules/x',
      '.git/HEAD',
      'dist/apps/x',
      '.env',
      'apps/x/.env',
      '.cache/kubectl',
    ]) {
      expect({ excluded, ignored: dockerignored(excluded, context.dockerignore) }).toEqual({ excluded, ignored: true });
    }
    for (const kept of [
      'package.json',
      'package-lock.json',
      'apps/tools-gateway/src/main.ts',
      'libs/contracts/src/index.ts',
      'tools/dev/build-app.cjs',
      '.swcrc',
      'apps/x/.env.example',
    ]) {
      expect({ kept, ignored: dockerignored(kept, context.dockerignore) }).toEqual({ kept, ignored: false });
    }
  });
});

describe('lintDockerfile rules', () => {
  const lint = (text: string): string[] => lintDockerfile(text, context);

  it('accepts a minimal compliant Dockerfile', () => {
    expect(lint(GOOD)).toEqual([]);
  });

  it.each([
    [
      'a single stage',
      (t: string) => t.replace(/FROM \$\{NODE_IMAGE\} AS runtime[\s\S]*?WORKDIR \/app\n/, ''),
      'not a multi-stage build',
    ],
    [
      'an unpinned base image',
      (t: string) => t.replace(`node:${context.nodeVersion}-bookworm-slim`, 'node:latest'),
      'pin the base image',
    ],
    [
      'a different Node version',
      (t: string) => t.replace(`node:${context.nodeVersion}-`, 'node:22.1.0-'),
      'differs from .nvmrc',
    ],
    ['no USER', (t: string) => t.replace('USER 1000:1000\n', ''), 'no USER'],
    ['a named or root USER', (t: string) => t.replace('USER 1000:1000', 'USER node'), 'numeric non-root'],
    ['no HEALTHCHECK', (t: string) => t.replace(/HEALTHCHECK.*\n/, ''), 'no HEALTHCHECK'],
    [
      'ADD of a URL',
      (t: string) => t.replace('WORKDIR /deps', 'WORKDIR /deps\nADD https://example.com/x.tgz /x'),
      'use COPY, not ADD',
    ],
    ['a shell-form CMD', (t: string) => t.replace('CMD ["node", "main.js"]', 'CMD node main.js'), 'exec (JSON) form'],
    [
      'an install that rewrites the lockfile',
      (t: string) =>
        t.replace('npm install --omit=dev --no-save --ignore-scripts', 'npm install --omit=dev --ignore-scripts'),
      '--no-save',
    ],
    ['dev dependencies in production', (t: string) => t.replace(' --omit=dev', ''), '--omit=dev'],
    [
      'app files owned by the app user',
      (t: string) => t.replace('COPY --from=deps', 'COPY --from=deps --chown=1000:1000'),
      'root-owned',
    ],
    [
      'a missing COPY source',
      (t: string) => t.replace('package.json package-lock.json', 'package.json missing.lock'),
      'missing.lock does not exist',
    ],
    [
      'an ignored COPY source',
      (t: string) => t.replace('package.json package-lock.json', 'package.json docs'),
      'excluded by .dockerignore',
    ],
    [
      'an unguarded pipe',
      (t: string) =>
        t.replace(
          'npm install --omit=dev --no-save --ignore-scripts',
          'npm install --omit=dev --no-save --ignore-scripts | tee log',
        ),
      'pipefail',
    ],
    ['no syntax directive', (t: string) => t.replace(/^# syntax=.*\n/, ''), 'syntax='],
  ])('rejects %s', (_case, mutate, message) => {
    const problems = lint(mutate(GOOD));
    expect(problems).toEqual(expect.arrayContaining([expect.stringContaining(message)]));
  });
});

describe('Nx docker-build targets', () => {
  it('builds an image per app from docker/Dockerfile with the app as build argument', () => {
    const nx = JSON.parse(read('nx.json'));
    const command: string = nx.targetDefaults['docker-build'].options.command;
    expect(command).toContain('docker build -f docker/Dockerfile --build-arg APP={projectName}');
    expect(command).toMatch(/-t \S*\{projectName\}:\S+ \.$/);
    expect(nx.targetDefaults['docker-build'].options.cwd).toBe('{workspaceRoot}');
    // the image tag comes from the environment, which Nx does not hash: a cached run would skip the build
    expect(nx.targetDefaults['docker-build'].cache).toBe(false);
  });

  it('declares the target in every app project', () => {
    expect(APPS.length).toBeGreaterThanOrEqual(8);
    for (const app of APPS) {
      const project = JSON.parse(read(`apps/${app}/project.json`));
      expect({ app, target: project.targets['docker-build'] }).toEqual({ app, target: {} });
    }
  });
});
