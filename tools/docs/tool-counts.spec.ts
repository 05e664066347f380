import fs from 'node:fs';
import path from 'node:path';
import { TOOL_CATALOG } from '@paper/contracts';

const ROOT = path.resolve(__dirname, '..', '..');
const DOCS = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const WORDS: Record<string, number> = { eighteen: 18, nineteen: 19, twenty: 20, 'twenty-one': 21, 'twenty-two': 22 };

/** Every "N tools" / "all N tools" / "N named tools" the docs state, with where it stands. */
function statedCounts(file: string): { where: string; count: number }[] {
  const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  return lines.flatMap((line, i) =>
    [...line.matchAll(/\b(\d+|[a-z]+(?:-[a-z]+)?) (?:named )?tools\b/gi)]
      .map((m) => ({ where: `${file}:${i + 1}`, count: /^\d+$/.test(m[1]) ? Number(m[1]) : WORDS[m[1].toLowerCase()] }))
      .filter((c): c is { where: string; count: number } => c.count !== undefined),
  );
}

describe('tool counts in the docs', () => {
  const stated = DOCS.flatMap(statedCounts);

  it('finds the counts the README and docs state', () => {
    expect(stated.length).toBeGreaterThan(0);
  });

  it('every stated count of tools matches the catalog', () => {
    expect(stated.filter((s) => s.count !== TOOL_CATALOG.length)).toEqual([]);
  });
});
