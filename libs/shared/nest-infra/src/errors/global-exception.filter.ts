import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, NotFoundException } from '@nestjs/common';
import { isCodedError } from '@paper/contracts';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { isDependencyOutage, OUTAGE_RETRY_AFTER_SECONDS } from './dependency-outage';
import type { RouteMethods } from '../http/route-methods';
import { requestIdOf } from '../logging/request-logger';
import { type ErrorStyle, errorBody } from './error-body';

export interface RenderedError {
  status: number;
  code: string;
  message: string;
  headers?: Readonly<Record<string, string>>;
}

const STATUS_CODES: Record<number, string> = {
  400: 'invalid_arguments',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  502: 'upstream_unavailable',
  503: 'service_unavailable',
};

/**
 * The one global filter: every error, whatever threw it, leaves in the app's documented error shape. A
 * request no route matched gets 405 with `Allow` when the path is served with other methods (given
 * `routeMethods`), 404 otherwise.
 */
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly style: ErrorStyle,
    private readonly logger: Logger,
    private readonly routeMethods?: RouteMethods,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const req = http.getRequest<Request>();
    const requestId = requestIdOf(req);
    const rendered = this.wrongMethod(exception, req) ?? this.render(exception);
    if (rendered.status === 502 || rendered.status === 503) {
      this.logger.warn({ err: exception, reqId: requestId }, 'request met an unavailable dependency');
    } else if (rendered.status >= 500) {
      this.logger.error({ err: exception, reqId: requestId }, 'request failed');
    }
    if (res.headersSent) {
      return;
    }
    for (const [name, value] of Object.entries(rendered.headers ?? {})) {
      res.setHeader(name, value);
    }
    // An internal error names the request, so the user's report leads to its log lines.
    const reference = rendered.status === 500 && requestId ? requestId : undefined;
    res.status(rendered.status).json(errorBody(this.style, rendered.code, rendered.message, reference));
  }

  /** 405 with `Allow` for a request no route matched whose path other methods serve. */
  wrongMethod(exception: unknown, req: Pick<Request, 'method' | 'path'>): RenderedError | undefined {
    if (!this.routeMethods || !(exception instanceof NotFoundException) || isCodedError(exception)) return undefined;
    const allowed = this.routeMethods(req.path);
    if (allowed.length === 0 || allowed.includes(req.method)) return undefined;
    const allow = allowed.join(', ');
    return {
      status: 405,
      code: 'method_not_allowed',
      message: `${req.method.slice(0, 20)} is not allowed on ${req.path.slice(0, 200)}: it takes ${allow}.`,
      headers: { Allow: allow },
    };
  }

  render(exception: unknown): RenderedError {
    if (isCodedError(exception)) {
      return { status: exception.status, code: exception.code, message: exception.message, headers: exception.headers };
    }
    if (exception instanceof HttpException) {
      // Express 5 adapters wrap body-parser errors (bad JSON, too large) in an HttpException: keep their codes.
      const wrapped = bodyParserError(exception.cause);
      if (wrapped) return wrapped;
      const status = exception.getStatus();
      return {
        status,
        code: STATUS_CODES[status] ?? (status >= 500 ? 'internal_error' : 'bad_request'),
        message: httpMessage(exception),
      };
    }
    const parserError = bodyParserError(exception);
    if (parserError) {
      return parserError;
    }
    if (isDependencyOutage(exception)) {
      return {
        status: 503,
        code: 'service_unavailable',
        message: 'The service could not reach its database or Redis just now. Please retry in a few seconds.',
        headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) },
      };
    }
    return {
      status: 500,
      code: 'internal_error',
      message: 'Something went wrong on our side. Please try again shortly.',
    };
  }
}

function httpMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  if (typeof message === 'string') return message;
  return exception.message;
}

function bodyParserError(exception: unknown): RenderedError | undefined {
  const err = exception as { type?: string; status?: number } | null;
  if (!err || typeof err !== 'object' || typeof err.type !== 'string') return undefined;
  if (err.type === 'entity.parse.failed') {
    return { status: 400, code: 'invalid_json', message: 'The request body is not valid JSON. Send a JSON object.' };
  }
  if (err.type === 'entity.too.large') {
    return { status: 413, code: 'payload_too_large', message: 'The request body is too large.' };
  }
  if (typeof err.status === 'number' && err.status >= 400 && err.status < 500) {
    return { status: err.status, code: 'invalid_request', message: 'The request could not be read.' };
  }
  return undefined;
}
