import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ValidationError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { Logger } from '../../shared/logger.js';
import { restErrorBody } from './rest-error-body.js';

/** What Node's HTTP parser refuses before express sees the request, as our statuses. */
function statusOf(code: string | undefined): { status: number; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, message: 'The request line and headers are larger than 16 KB. Send long filters as fewer, shorter query parameters.' };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'The request did not arrive in time.' };
  return { status: 400, message: 'The request is not valid HTTP/1.1.' };
}

/**
 * The server's `clientError` handler: a request the HTTP parser refuses (a URL or headers
 * over 16 KB, a malformed header line) gets the same JSON error envelope as any other
 * 4xx, instead of Node's bare status line. The raw packet is never logged: it may hold
 * an Authorization header.
 */
export function answerClientError(log: Logger): (error: Error & { code?: string }, socket: Duplex) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, message } = statusOf(error.code);
    const requestId = newId('request');
    log.info({ request_id: requestId, status, parser_error: error.code }, 'request refused by the HTTP parser');
    const body = JSON.stringify(restErrorBody(new ValidationError(message), requestId));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
}
