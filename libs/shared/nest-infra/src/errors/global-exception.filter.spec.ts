import { BadRequestException, NotFoundException } from '@nestjs/common';
import { CodedError } from '@paper/contracts';
import pino from 'pino';
import { GlobalExceptionFilter } from './global-exception.filter';

const filter = new GlobalExceptionFilter('tool-envelope', pino({ level: 'silent' }));

describe('GlobalExceptionFilter.render', () => {
  it('renders feature exceptions with their code, status and headers', () => {
    const rendered = filter.render(new CodedError('rate_limited', 429, 'Slow down.', { 'Retry-After': '2' }));
    expect(rendered).toEqual({
      status: 429,
      code: 'rate_limited',
      message: 'Slow down.',
      headers: { 'Retry-After': '2' },
    });
  });

  it('maps framework HTTP exceptions to codes', () => {
    expect(filter.render(new NotFoundException('Cannot GET /x'))).toMatchObject({ status: 404, code: 'not_found' });
    expect(filter.render(new BadRequestException(['a is required', 'b is bad']))).toMatchObject({
      status: 400,
      message: 'a is required; b is bad',
    });
  });

  it('turns malformed JSON bodies into a 400', () => {
    expect(
      filter.render(Object.assign(new SyntaxError('Unexpected token'), { type: 'entity.parse.failed', status: 400 })),
    ).toMatchObject({
      status: 400,
      code: 'invalid_json',
    });
  });

  it('keeps the invalid_json code when the platform wraps the parser error in a BadRequestException', () => {
    const cause = Object.assign(new SyntaxError('Unexpected token'), { type: 'entity.parse.failed', status: 400 });
    expect(filter.render(new BadRequestException(cause.message, { cause }))).toMatchObject({
      status: 400,
      code: 'invalid_json',
    });
  });

  it('answers 503 with Retry-After when PostgreSQL or Redis is unreachable', () => {
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), {
      driverError: { code: '57P01' },
    });
    expect(filter.render(terminated)).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      headers: { 'Retry-After': '2' },
    });
    expect(filter.render(new Error('Command timed out'))).toMatchObject({ status: 503 });
  });

  it('hides internal errors behind a generic 500', () => {
    const rendered = filter.render(new Error('password=hunter2 leaked'));
    expect(rendered.status).toBe(500);
    expect(rendered.message).not.toContain('hunter2');
  });
});
