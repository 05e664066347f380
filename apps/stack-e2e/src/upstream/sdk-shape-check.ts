import path from 'node:path';
import * as ts from 'typescript';

/**
 * Checks answers against the response types a Hyperliquid SDK declares for its InfoClient methods, with
 * the TypeScript compiler: each answer becomes an object literal typed as the method's result, so a
 * missing field, a field of the wrong type, a wrong tuple and an unknown field are all errors. Returns
 * the compiler's messages (none when every answer has exactly the SDK's shape).
 */
export function sdkShapeErrors(
  answers: ReadonlyArray<{ method: string; value: unknown }>,
  sdk = '@nktkas/hyperliquid',
): string[] {
  const file = path.join(__dirname, '__venue_answers__.ts');
  const source = [
    `import type { InfoClient } from '${sdk}';`,
    '// eslint-disable-next-line @typescript-eslint/no-explicit-any',
    'type Answer<K extends keyof InfoClient> = InfoClient[K] extends (...args: any[]) => Promise<infer R> ? R : never;',
    ...answers.map((a, i) => `export const answer${i}: Answer<'${a.method}'> = ${JSON.stringify(a.value)};`),
  ].join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError) =>
    name === file ? ts.createSourceFile(name, source, language) : read(name, language, onError);
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || exists(name);
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line - 3 : -1;
    const method = where >= 0 ? answers[where]?.method : undefined;
    return `${method ?? 'file'}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}
