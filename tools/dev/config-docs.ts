/**
 * Generates `.env.example` and `docs/configuration.md` from the apps' config schemas (the one source of
 * truth). `node -r ./tools/dev/register.cjs tools/dev/config-docs.ts --write` rewrites them; the unit test
 * config-docs.spec.ts fails when they are out of date.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';

const ROOT = path.resolve(__dirname, '..', '..');

export interface VariableDoc {
  name: string;
  apps: string[];
  defaults: Set<string>;
  required: boolean;
  description: string;
}

function appSchemas(): Array<{ app: string; schema: z.ZodObject }> {
  const apps = fs
    .readdirSync(path.join(ROOT, 'apps'))
    .filter((a) => fs.existsSync(path.join(ROOT, 'apps', a, 'src', 'config', `${a}.config.ts`)));
  return apps.sort().map((app) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(path.join(ROOT, 'apps', app, 'src', 'config', `${app}.config.ts`)) as Record<string, unknown>;
    const schema = Object.entries(mod).find(([k]) => k.endsWith('ConfigSchema'))?.[1] as z.ZodObject | undefined;
    if (!schema) throw new Error(`apps/${app}: no *ConfigSchema export`);
    return { app, schema };
  });
}

interface Def {
  type: string;
  defaultValue?: unknown;
  in?: { _zod: { def: Def } };
  innerType?: { _zod: { def: Def } };
}

function inspect(field: z.ZodType): { default?: string; required: boolean; description: string } {
  let def = (field as unknown as { _zod: { def: Def } })._zod.def;
  const description = field.description ?? '';
  for (let i = 0; i < 10; i += 1) {
    if (def.type === 'default') {
      const value = def.defaultValue;
      return { default: value === undefined ? undefined : String(value), required: false, description };
    }
    if (def.type === 'optional') return { required: false, description };
    if (def.type === 'pipe' && def.in) def = def.in._zod.def;
    else if (def.innerType) def = def.innerType._zod.def;
    else break;
  }
  return { required: true, description };
}

export function collectVariables(): VariableDoc[] {
  const vars = new Map<string, VariableDoc>();
  for (const { app, schema } of appSchemas()) {
    for (const [name, field] of Object.entries(schema.shape)) {
      const info = inspect(field as z.ZodType);
      const doc = vars.get(name) ?? { name, apps: [], defaults: new Set<string>(), required: false, description: '' };
      doc.apps.push(app);
      if (info.default !== undefined) doc.defaults.add(info.default);
      doc.required ||= info.required;
      if (info.description && !doc.description.split(' / ').includes(info.description)) {
        doc.description = doc.description ? `${doc.description} / ${info.description}` : info.description;
      }
      vars.set(name, doc);
    }
  }
  return [...vars.values()].sort((a, b) => a.name.localeCompare(b.name));
}

const SECRET = /SECRET|TOKEN|PASSWORD|ENCRYPTION_KEY|JWKS$/;

export function renderEnvExample(vars: VariableDoc[]): string {
  const lines = [
    '# Every environment variable the apps read, with its default (generated from the config schemas).',
    '# Copy to .env and adjust: `npm start`, `npm run db:migrate|db:seed|faucet` and `nx serve <app>` read it',
    '# (variables already set in the environment win); an app ignores variables it does not use.',
    '',
  ];
  for (const v of vars) {
    if (v.description) lines.push(`# ${v.description}`);
    lines.push(`# used by: ${v.apps.join(', ')}`);
    const value = v.defaults.size === 1 && !SECRET.test(v.name) ? [...v.defaults][0] : '';
    lines.push(`${v.defaults.size === 1 || v.required ? '' : '# '}${v.name}=${value}`);
    lines.push('');
  }
  return lines.join('\n');
}

export function renderMarkdown(vars: VariableDoc[]): string {
  const rows = vars.map((v) => {
    const defaults =
      SECRET.test(v.name) && [...v.defaults].some((d) => d !== '')
        ? '(development value)'
        : [...v.defaults].map((d) => `\`${d}\``).join(', ') || (v.required ? '**required**' : '');
    return `| \`${v.name}\` | ${v.description.replace(/\|/g, '\\|')} | ${defaults} | ${v.apps.join(', ')} |`;
  });
  return [
    '# Configuration',
    '',
    'Every app validates its environment at start-up against its own schema',
    '(`apps/<app>/src/config/<app>.config.ts`) and exits with status 78, naming each bad or missing variable.',
    'This table is generated from those schemas (`node -r ./tools/dev/register.cjs tools/dev/config-docs.ts --write`).',
    'Where a variable has different defaults per app (PORT), each is listed.',
    '',
    '| variable | meaning | default | apps |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

export const OUTPUTS = {
  env: path.join(ROOT, '.env.example'),
  markdown: path.join(ROOT, 'docs', 'configuration.md'),
};

if (require.main === module) {
  const vars = collectVariables();
  if (process.argv.includes('--write')) {
    fs.writeFileSync(OUTPUTS.env, renderEnvExample(vars));
    fs.writeFileSync(OUTPUTS.markdown, renderMarkdown(vars));
    console.log(`wrote ${vars.length} variables to .env.example and docs/configuration.md`);
  } else {
    console.log(renderMarkdown(vars));
  }
}
