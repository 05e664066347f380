import http, { type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { answerClientErrors } from './client-errors';

/** Sends raw bytes and resolves to everything the server answered before it closed the connection. */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(raw);
  });
}

function parse(answer: string): { status: number; headers: string; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(body) };
}

describe('answerClientErrors', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end('ok'));
    answerClientErrors(server, 'alerts');
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it('answers a request line over 16 KB with 431 in the service’s error shape and closes', async () => {
    const answer = parse(await exchange(port, `GET /?q=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(answer.status).toBe(431);
    expect(answer.headers).toContain('content-type: application/json');
    expect(answer.headers).toContain('connection: close');
    expect(answer.body).toEqual({ code: 'request_header_fields_too_large', message: expect.stringContaining('16 KB') });
  });

  it('answers a request that is not HTTP/1.1 with 400 in the service’s error shape', async () => {
    const answer = parse(await exchange(port, 'NOT HTTP AT ALL\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: 'bad_request', message: expect.any(String) });
  });
});
