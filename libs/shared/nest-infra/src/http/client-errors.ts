import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ErrorStyle, errorBody } from '../errors/error-body';

interface ClientErrorAnswer {
  status: number;
  reason: string;
  code: string;
  message: string;
}

/** What a request the HTTP parser refused gets, by the parser's error code. */
function answerFor(errorCode: string | undefined): ClientErrorAnswer {
  if (errorCode === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      reason: 'Request Header Fields Too Large',
      code: 'request_header_fields_too_large',
      message: 'The request line and headers are too large: the URL and headers together may have at most 16 KB.',
    };
  if (errorCode === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      status: 408,
      reason: 'Request Timeout',
      code: 'request_timeout',
      message: 'The request did not arrive in time.',
    };
  return {
    status: 400,
    reason: 'Bad Request',
    code: 'bad_request',
    message: 'The request is not valid HTTP/1.1.',
  };
}

/**
 * Requests Node's HTTP parser refuses before any handler sees them (a URL or headers over 16 KB, broken
 * framing, a request that never finishes) are answered in the service's error shape instead of Node's
 * empty default, and the connection is closed.
 */
export function answerClientErrors(server: Server, style: ErrorStyle): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const answered = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (error.code === 'ECONNRESET' || !socket.writable || answered) {
      socket.destroy();
      return;
    }
    const answer = answerFor(error.code);
    const body = JSON.stringify(errorBody(style, answer.code, answer.message));
    socket.end(
      `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
