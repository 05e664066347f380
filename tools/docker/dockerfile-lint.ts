/**
 * A Dockerfile linter for the image definition in docker/: parses the instructions (continuations,
 * comments, parser directives, stages, ARG defaults in FROM) and checks the rules our images follow,
 * after hadolint's where they overlap (DL3000 absolute WORKDIR, DL3003 no `cd`, DL3004 no sudo,
 * DL3006/DL3007 pinned tags, DL3020 COPY not ADD, DL3025 exec-form CMD, DL4006 pipefail) plus ours:
 * multi-stage, pruned production dependencies, numeric non-root USER, HEALTHCHECK, root-owned app
 * files, COPY sources that exist and survive .dockerignore.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface Stage {
  name: string | undefined;
  image: string;
  instructions: Instruction[];
}

export interface ParsedDockerfile {
  directives: Record<string, string>;
  globalArgs: Record<string, string>;
  stages: Stage[];
}

export function parseDockerfile(text: string): ParsedDockerfile {
  const directives: Record<string, string> = {};
  const instructions: Instruction[] = [];
  const lines = text.split('\n');
  let inDirectives = true;
  let pending: { args: string[]; line: number } | undefined;
  lines.forEach((raw, index) => {
    const trimmed = raw.trim();
    const directive = /^#\s*([a-z]+)\s*=\s*(\S+)\s*$/i.exec(trimmed);
    if (inDirectives && directive) {
      directives[(directive[1] as string).toLowerCase()] = directive[2] as string;
      return;
    }
    inDirectives = false;
    if (trimmed.startsWith('#') || (trimmed === '' && !pending)) return;
    const continued = trimmed.endsWith('\\');
    const content = continued ? trimmed.slice(0, -1).trim() : trimmed;
    pending = pending ? { ...pending, args: [...pending.args, content] } : { args: [content], line: index + 1 };
    if (!continued) {
      const joined = pending.args.filter(Boolean).join(' ');
      const space = joined.search(/\s/);
      instructions.push({
        keyword: (space < 0 ? joined : joined.slice(0, space)).toUpperCase(),
        args: space < 0 ? '' : joined.slice(space + 1).trim(),
        line: pending.line,
      });
      pending = undefined;
    }
  });
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const parts = instruction.args.split(/\s+/).filter((p) => !p.startsWith('--'));
      const image = (parts[0] ?? '').replace(/\$\{?(\w+)\}?/g, (_, name: string) => globalArgs[name] ?? `\${${name}}`);
      stages.push({ name: parts[1]?.toUpperCase() === 'AS' ? parts[2] : undefined, image, instructions: [] });
    } else if (stages.length === 0 && instruction.keyword === 'ARG') {
      const [name, value] = instruction.args.split('=');
      if (name && value !== undefined) globalArgs[name] = value;
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return { directives, globalArgs, stages };
}

/** Does a .dockerignore exclude this path (relative to the context)? Later patterns win; `!` re-includes. */
export function dockerignored(relativePath: string, patterns: readonly string[]): boolean {
  const toRegex = (pattern: string): RegExp => {
    const body = pattern
      .replace(/^\/+|\/+$/g, '')
      .split('')
      .map((c) => ('.+^$()[]{}|'.includes(c) ? `\\${c}` : c))
      .join('')
      .replace(/\*\*\/?/g, '\u0000')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]')
      .replace(/\u0000/g, '(?:.*/)?');
    return new RegExp(`^${body}(?:/.*)?$`);
  };
  let ignored = false;
  for (const raw of patterns) {
    const pattern = raw.trim();
    if (!pattern || pattern.startsWith('#')) continue;
    const negated = pattern.startsWith('!');
    if (toRegex(negated ? pattern.slice(1) : pattern).test(relativePath)) ignored = !negated;
  }
  return ignored;
}

const flagsOf = (args: string): string[] => args.split(/\s+/).filter((p) => p.startsWith('--'));
const withoutFlags = (args: string): string[] => args.split(/\s+/).filter((p) => p && !p.startsWith('--'));
const isExecForm = (args: string): boolean => {
  try {
    return Array.isArray(JSON.parse(args));
  } catch {
    return false;
  }
};

export interface LintContext {
  /** Repository root: the build context. */
  root: string;
  dockerignore: readonly string[];
  nodeVersion: string;
}

export function lintDockerfile(text: string, context: LintContext): string[] {
  const problems: string[] = [];
  const { directives, stages } = parseDockerfile(text);
  const at = (i: Instruction, message: string): void => void problems.push(`line ${i.line}: ${message}`);
  const stageNames = new Set(stages.map((s) => s.name).filter(Boolean));

  if (!directives['syntax']?.startsWith('docker/dockerfile:'))
    problems.push('missing `# syntax=docker/dockerfile:1.x` directive');
  if (stages.length < 2) problems.push('not a multi-stage build');
  for (const stage of stages) {
    if (!stage.name) problems.push(`stage FROM ${stage.image} has no name (FROM image AS name)`);
    if (stageNames.has(stage.image)) continue;
    if (/\$\{/.test(stage.image)) problems.push(`FROM ${stage.image}: base image depends on an ARG without a default`);
    const tag = /:([^/@]+)$/.exec(stage.image)?.[1];
    if (!stage.image.includes('@sha256:') && (!tag || tag === 'latest' || !/^\d+\.\d+\.\d+/.test(tag))) {
      problems.push(`FROM ${stage.image}: pin the base image to a full version tag or digest`);
    }
    if (stage.image.startsWith('node:') && tag && !tag.startsWith(`${context.nodeVersion}-`)) {
      problems.push(`FROM ${stage.image}: Node version differs from .nvmrc (${context.nodeVersion})`);
    }
  }

  const all = stages.flatMap((s) => s.instructions);
  for (const i of all) {
    if (i.keyword === 'ADD') at(i, 'use COPY, not ADD (no remote URLs or archives)');
    if ((i.keyword === 'CMD' || i.keyword === 'ENTRYPOINT') && !isExecForm(i.args))
      at(i, `${i.keyword} must use the exec (JSON) form`);
    if (i.keyword === 'WORKDIR' && !i.args.startsWith('/')) at(i, 'WORKDIR must be absolute');
    if (i.keyword !== 'RUN') continue;
    if (/\bsudo\b/.test(i.args)) at(i, 'no sudo in RUN');
    if (/(^|&&|;)\s*cd\s/.test(i.args)) at(i, 'use WORKDIR instead of cd');
    if (/\bnpm (install|i)\b/.test(i.args) && !i.args.includes('--no-save'))
      at(i, 'install dependencies at the locked versions with `npm install --no-save`');
    if (/\bnpm (ci|install|i)\b/.test(i.args) && !i.args.includes('--ignore-scripts'))
      at(i, 'installing without --ignore-scripts runs dependency install scripts');
    if (/apt-get install/.test(i.args) && !i.args.includes('--no-install-recommends'))
      at(i, 'apt-get install needs --no-install-recommends');
    if (
      /[^|]\|[^|]/.test(i.args.replace(/'[^']*'|"[^"]*"/g, '')) &&
      !all.some((s) => s.keyword === 'SHELL' && s.args.includes('pipefail'))
    ) {
      at(i, 'a pipe in RUN needs SHELL ["/bin/bash", "-o", "pipefail", "-c"]');
    }
  }
  if (!all.some((i) => i.keyword === 'RUN' && /\bnpm (ci|install)\b.*--omit=dev/.test(i.args)))
    problems.push('no stage installs production dependencies (--omit=dev)');

  for (const i of all.filter((x) => x.keyword === 'COPY' && !flagsOf(x.args).some((f) => f.startsWith('--from=')))) {
    for (const source of withoutFlags(i.args).slice(0, -1)) {
      const relative = path.normalize(source) === '.' ? '' : path.normalize(source).replace(/^\.\//, '');
      if (!fs.existsSync(path.join(context.root, relative))) at(i, `COPY source ${source} does not exist`);
      else if (relative && dockerignored(relative, context.dockerignore))
        at(i, `COPY source ${source} is excluded by .dockerignore`);
    }
  }

  const final = stages.at(-1);
  if (!final) return problems;
  const finalOf = (keyword: string): Instruction[] => final.instructions.filter((i) => i.keyword === keyword);
  const users = finalOf('USER');
  const user = users.at(-1);
  if (!user) problems.push('final stage: no USER (the app would run as root)');
  else if (!/^[1-9]\d*(:[1-9]\d*)?$/.test(user.args))
    at(user, 'USER must be a numeric non-root uid[:gid] (Kubernetes runAsNonRoot can only verify numbers)');
  const lastChange = Math.max(
    ...final.instructions.filter((i) => ['RUN', 'COPY'].includes(i.keyword)).map((i) => i.line),
  );
  if (user && user.line < lastChange) at(user, 'USER must come after the last RUN/COPY of the final stage');
  const healthcheck = finalOf('HEALTHCHECK')[0];
  if (!healthcheck) problems.push('final stage: no HEALTHCHECK');
  else if (!/CMD\s+\[/.test(healthcheck.args) || !healthcheck.args.includes('/livez'))
    at(healthcheck, 'HEALTHCHECK must probe /livez in exec form');
  if (!finalOf('EXPOSE').some((i) => i.args.split(/\s+/).includes('8080'))) problems.push('final stage: EXPOSE 8080');
  if (!finalOf('ENV').some((i) => /\bNODE_ENV=production\b/.test(i.args)))
    problems.push('final stage: ENV NODE_ENV=production');
  for (const i of finalOf('COPY')) {
    const from = flagsOf(i.args)
      .find((f) => f.startsWith('--from='))
      ?.slice('--from='.length);
    if (!from || !stageNames.has(from)) at(i, 'final stage copies only from build stages (the pruned output)');
    const chown = flagsOf(i.args).find((f) => f.startsWith('--chown='));
    if (chown && chown !== '--chown=root:root' && chown !== '--chown=0:0')
      at(i, 'app files stay root-owned: the runtime user must not be able to modify them');
  }
  for (const i of finalOf('RUN')) {
    if (/\bchown\b/.test(i.args))
      at(i, 'no chown in the final stage (it duplicates the layer and hands files to the app user)');
    if (/\bnpm\b/.test(i.args) && !/rm -rf/.test(i.args)) at(i, 'no npm in the final stage');
  }
  return problems;
}
