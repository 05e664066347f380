import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { randomUUID } from 'node:crypto';
import { bodyCases, type FuzzRequest, queryCases, resolve } from './fuzz-cases';

type Json = Record<string, unknown>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** A service to fuzz: its base URL, its OpenAPI document and the credentials of an authenticated caller. */
export interface FuzzTarget {
  name: string;
  baseUrl: string;
  doc: Json;
  /** Headers of a caller allowed to use the operation (bearer token), by path. */
  credentials(path: string): Record<string, string>;
  /** Extra headers a path needs (the Accept header of MCP). */
  headers?(path: string): Record<string, string>;
  /** The client to send with (default: the global fetch). */
  fetch?: typeof fetch;
}

export interface FuzzOutcome {
  requests: number;
  /** Answers of 500 and above, undocumented statuses and error bodies not in their documented shape. */
  findings: string[];
}

/** Path parameters: enumerations rotate through their values, ids are unknown UUIDs. */
function fillPath(doc: Json, path: string, parameters: Json[], round: number): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = parameters.map((p) => resolve(doc, p)).find((p) => p['name'] === name && p['in'] === 'path');
    const values = (resolve(doc, parameter?.['schema']) as { enum?: string[] }).enum;
    return values?.length ? values[round % values.length]! : randomUUID();
  });
}

/** Runs the generated cases against every operation of the document; bounded concurrency. */
export async function fuzzDocument(target: FuzzTarget, concurrency = 6): Promise<FuzzOutcome> {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  ajv.addSchema({ ...target.doc, $id: `${target.name}.json` } as Json);
  const validators = new Map<string, ValidateFunction>();
  const jobs: Array<() => Promise<string | undefined>> = [];
  for (const [path, item] of Object.entries(target.doc['paths'] as Record<string, Json>)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const parameters = [...((item['parameters'] as Json[]) ?? []), ...((operation['parameters'] as Json[]) ?? [])];
      const body = ((operation['requestBody'] as Json | undefined)?.['content'] as Json | undefined)?.[
        'application/json'
      ] as Json | undefined;
      const cases: FuzzRequest[] = [
        ...queryCases(target.doc, parameters),
        ...(body || method !== 'get' ? bodyCases(target.doc, body?.['schema'] ?? {}) : []),
      ];
      const secured = ((operation['security'] as Json[] | undefined) ?? []).some((s) => Object.keys(s).length > 0);
      cases.forEach((c, round) => {
        const authenticated = !secured || round % 7 !== 0;
        jobs.push(() =>
          send(target, ajv, validators, { path, method, operation, parameters, round, authenticated }, c),
        );
      });
    }
  }
  const findings: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) {
        const finding = await jobs[next++]!();
        if (finding) findings.push(finding);
      }
    }),
  );
  return { requests: jobs.length, findings };
}

interface Operation {
  path: string;
  method: (typeof METHODS)[number];
  operation: Json;
  parameters: Json[];
  round: number;
  authenticated: boolean;
}

async function send(
  target: FuzzTarget,
  ajv: Ajv2020,
  validators: Map<string, ValidateFunction>,
  op: Operation,
  c: FuzzRequest,
): Promise<string | undefined> {
  const url = `${target.baseUrl}${fillPath(target.doc, op.path, op.parameters, op.round)}${c.query ? `?${c.query}` : ''}`;
  const headers: Record<string, string> = {
    ...(target.headers?.(op.path) ?? {}),
    ...(op.authenticated ? target.credentials(op.path) : {}),
  };
  if (c.contentType) headers['content-type'] = c.contentType;
  const where = `${target.name} ${op.method.toUpperCase()} ${op.path} [${c.label}${op.authenticated ? '' : ', no token'}]`;
  let res: Response;
  try {
    res = await (target.fetch ?? fetch)(url, {
      method: op.method.toUpperCase(),
      headers,
      body: c.body === undefined || op.method === 'get' ? undefined : new TextEncoder().encode(c.body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    return `${where}: no answer (${(error as Error).message})`;
  }
  if (res.status < 400 && (res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    // An event stream that opened: it never ends by itself; its frames are tested by the stream's own suite.
    await res.body?.cancel();
    return undefined;
  }
  const text = await res.text();
  if (res.status >= 500) return `${where}: ${res.status} ${text.slice(0, 200)}`;
  if (res.status < 400) return undefined;
  const responses = op.operation['responses'] as Record<string, Json>;
  const key = [String(res.status), `${String(res.status)[0]}XX`, 'default'].find((k) => responses[k]);
  if (!key) return `${where}: ${res.status} is not documented (${text.slice(0, 120)})`;
  const schema = (
    (resolve(target.doc, responses[key]!)['content'] as Json | undefined)?.['application/json'] as Json | undefined
  )?.['schema'];
  if (!schema) return undefined;
  const pointer = `${target.name}.json#/paths/${op.path.replace(/~/g, '~0').replace(/\//g, '~1')}/${op.method}/responses/${key}/content/application~1json/schema`;
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: pointer });
    validators.set(pointer, validate);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `${where}: ${res.status} body is not JSON: ${text.slice(0, 120)}`;
  }
  return validate(parsed)
    ? undefined
    : `${where}: ${res.status} body not in its documented shape (${ajv.errorsText(validate.errors)}): ${text.slice(0, 160)}`;
}
