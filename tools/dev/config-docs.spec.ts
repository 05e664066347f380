import fs from 'node:fs';
import { collectVariables, OUTPUTS, renderEnvExample, renderMarkdown } from './config-docs';

describe('configuration docs', () => {
  const vars = collectVariables();

  it('describes every variable', () => {
    expect(vars.filter((v) => !v.description).map((v) => v.name)).toEqual([]);
  });

  it('covers the variables every app shares', () => {
    const names = vars.map((v) => v.name);
    expect(names).toEqual(expect.arrayContaining(['PORT', 'LOG_LEVEL', 'NODE_ENV', 'DATABASE_URL', 'REDIS_URL']));
    expect(vars.find((v) => v.name === 'PORT')?.apps).toHaveLength(8);
  });

  it('.env.example is generated from the current schemas', () => {
    expect(fs.readFileSync(OUTPUTS.env, 'utf8')).toBe(renderEnvExample(vars));
  });

  it('docs/configuration.md is generated from the current schemas', () => {
    expect(fs.readFileSync(OUTPUTS.markdown, 'utf8')).toBe(renderMarkdown(vars));
  });
});
