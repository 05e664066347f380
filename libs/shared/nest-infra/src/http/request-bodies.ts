import type { NestExpressApplication } from '@nestjs/platform-express';
import type { json as expressJson, NextFunction, Request, Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { type ErrorStyle, JSON_RPC, errorBody, jsonRpcErrorBody } from '../errors/error-body';
import { jsonTextTooDeep, tooDeepMessage } from './json-depth';
import { unstorableTextMessage, unstorableTextPath } from './storable-text';

/** Why a request body (or query string) was refused before it reached a handler. */
export type BodyProblem =
  'unsupported_media_type' | 'payload_too_large' | 'invalid_json' | 'too_deep' | 'unstorable_text';

export interface BodyRefusal {
  status: 400 | 413 | 415;
  problem: BodyProblem;
  message: string;
}

/** Writes a refusal in the error shape of the service (or of the path: JSON-RPC on /mcp, OAuth errors). */
export type BodyRefusalResponder = (req: Request, res: Response, refusal: BodyRefusal) => void;

const STYLE_CODES: Record<ErrorStyle, Record<BodyProblem, string>> = {
  'tool-envelope': {
    unsupported_media_type: 'unsupported_media_type',
    payload_too_large: 'payload_too_large',
    invalid_json: 'invalid_json',
    too_deep: 'invalid_arguments',
    unstorable_text: 'invalid_arguments',
  },
  alerts: {
    unsupported_media_type: 'unsupported_media_type',
    payload_too_large: 'payload_too_large',
    invalid_json: 'invalid_json',
    too_deep: 'validation_failed',
    unstorable_text: 'validation_failed',
  },
};

/** Refusals in the app's error style: the tool envelope or `{ code, message }`. */
export function respondInStyle(style: ErrorStyle): BodyRefusalResponder {
  return (_req, res, refusal) => {
    res.status(refusal.status).json(errorBody(style, STYLE_CODES[style][refusal.problem], refusal.message));
  };
}

/**
 * Refusals as JSON-RPC errors (MCP endpoints): -32700 for a body that is not JSON, -32600 for one nested too deep,
 * -32602 for bad text, else -32000.
 */
export const respondJsonRpc: BodyRefusalResponder = (req, res, refusal) => {
  const code =
    refusal.problem === 'invalid_json'
      ? JSON_RPC.parseError
      : refusal.problem === 'too_deep'
        ? JSON_RPC.invalidRequest
        : refusal.problem === 'unstorable_text'
          ? JSON_RPC.invalidParams
          : JSON_RPC.serverError;
  const message = refusal.problem === 'invalid_json' ? `Parse error: ${refusal.message}` : refusal.message;
  // A body that was read (text that cannot be stored) keeps the id of its request.
  res.status(refusal.status).json(jsonRpcErrorBody(code, message, { code: refusal.problem }, readableId(req.body)));
};

function readableId(body: unknown): string | number | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const id = (body as Record<string, unknown>)['id'];
  return typeof id === 'string' || Number.isSafeInteger(id) ? (id as string | number) : null;
}

export interface RequestBodyOptions {
  /** Largest body (body-parser notation, e.g. `256kb`). */
  limit: string;
  /** Path prefixes whose bodies are left unread for a handler that reads them itself. */
  rawPaths?: readonly string[];
  /** Path prefixes that also take `application/x-www-form-urlencoded` (HTML forms); everything else takes JSON only. */
  formPaths?: readonly string[];
  respond: BodyRefusalResponder;
}

const JSON_TYPES = ['application/json', 'application/*+json'];
const FORM_TYPE = 'application/x-www-form-urlencoded';

function under(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`));
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) !== 0);
}

/**
 * Request bodies the same way on every service: JSON bodies only (`application/json` or `+json`; HTML
 * form posts only on `formPaths`), anything else with a body is refused with 415; bodies above the limit
 * 413; malformed JSON 400; JSON nested deeper than MAX_JSON_DEPTH 400 (checked on the raw bytes, before
 * parsing, so no recursive walk downstream ever meets it); and strings or keys PostgreSQL cannot store, in a body or a
 * query string, 400
 * naming the field. Each refusal is written by `respond`, in the service's error shape.
 */
export function installRequestBodies(app: NestExpressApplication, options: RequestBodyOptions): void {
  const raw = options.rawPaths ?? [];
  const forms = options.formPaths ?? [];
  const respond = options.respond;
  const form = (req: Request) => forms.length > 0 && under(req.path, forms) && Boolean(req.is(FORM_TYPE));

  app.use((req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req) || under(req.path, raw) || req.is(JSON_TYPES) || form(req)) return next();
    const type = req.headers['content-type'];
    respond(req, res, {
      status: 415,
      problem: 'unsupported_media_type',
      message:
        `This endpoint takes a JSON body: send it with "Content-Type: application/json" (the request had ` +
        `${type ? `"${type.slice(0, 80)}"` : 'no Content-Type'}).`,
    });
  });
  // `verify` is the parser's own hook (Nest reserves it only for `rawBody`, which no app uses).
  const json: NonNullable<Parameters<typeof expressJson>[0]> = {
    limit: options.limit,
    verify: refuseTooDeep,
    type: (req: IncomingMessage) => !under((req as Request).path, raw) && Boolean((req as Request).is(JSON_TYPES)),
  };
  app.useBodyParser('json', json);
  if (forms.length > 0)
    app.useBodyParser('urlencoded', {
      extended: false,
      limit: options.limit,
      type: (req: IncomingMessage) => form(req as Request),
    });
  app.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    const type = (error as { type?: unknown } | null)?.type;
    if (type === 'entity.too.large') {
      // The parser stopped reading (and paused the request): the rest of the body is read and discarded,
      // so the connection stays usable for the client's next request instead of stalling.
      req.resume();
      return respond(req, res, {
        status: 413,
        problem: 'payload_too_large',
        message: `The request body is too large: at most ${options.limit.toUpperCase()} are accepted.`,
      });
    }
    if (type === TOO_DEEP) {
      return respond(req, res, { status: 400, problem: 'too_deep', message: tooDeepMessage() });
    }
    if (type === 'entity.parse.failed' || type === 'charset.unsupported' || type === 'encoding.unsupported') {
      return respond(req, res, {
        status: 400,
        problem: 'invalid_json',
        message: 'The request body is not valid JSON. Send a JSON object.',
      });
    }
    next(error);
  });
  app.use((req: Request, res: Response, next: NextFunction) => {
    const field = unstorableField(req);
    if (field === undefined) return next();
    respond(req, res, { status: 400, problem: 'unstorable_text', message: unstorableTextMessage(field) });
  });
}

const TOO_DEEP = 'entity.too.deep';

/** The JSON parser's verify step: text nested too deep is refused before it is parsed. */
function refuseTooDeep(_req: IncomingMessage, _res: unknown, body: Buffer): void {
  if (jsonTextTooDeep(body)) throw Object.assign(new Error('JSON nested too deep'), { type: TOO_DEEP, status: 400 });
}

/**
 * The field of the body or query string holding text PostgreSQL cannot store (the query is parsed only when it may).
 */
function unstorableField(req: Request): string | undefined {
  const body = req.body as unknown;
  if (body !== null && typeof body === 'object') {
    const inBody = unstorableTextPath(body);
    if (inBody !== undefined) return inBody;
  }
  const query = req.url.indexOf('?');
  if (query === -1 || req.url.indexOf('%00', query) === -1) return undefined;
  return unstorableTextPath(req.query);
}
