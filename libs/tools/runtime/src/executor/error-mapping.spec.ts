import { ToolErrorCode } from '@paper/contracts';
import { UpstreamError } from '@paper/upstream';
import { ToolError } from '../errors/tool.error';
import { isInfrastructureError, mapToolError } from './error-mapping';

describe('mapToolError', () => {
  it('turns venue failures into 502 upstream_unavailable with retry advice', () => {
    const mapped = mapToolError(new UpstreamError('timeout', 'no answer')) as ToolError;
    expect(mapped).toBeInstanceOf(ToolError);
    expect(mapped.status).toBe(502);
    expect(mapped.code).toBe(ToolErrorCode.UpstreamUnavailable);
    expect(mapped.headers['Retry-After']).toBe('2');
    expect(mapped.message).toMatch(/try again/i);
  });

  it('turns an unreachable database or Redis into 503 exchange_unavailable', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(isInfrastructureError(refused)).toBe(true);
    expect((mapToolError(refused) as ToolError).code).toBe(ToolErrorCode.ExchangeUnavailable);
    expect(isInfrastructureError(new Error('Connection is closed.'))).toBe(true);
  });

  it('treats a database that was dropped or stopped as unavailable (503), wrapped by TypeORM or not', () => {
    const gone = Object.assign(new Error('database "paper" does not exist'), { code: '3D000' });
    expect((mapToolError(gone) as ToolError).code).toBe(ToolErrorCode.ExchangeUnavailable);
    const wrapped = Object.assign(new Error('terminating connection due to administrator command'), {
      driverError: { code: '57P01' },
    });
    expect((mapToolError(wrapped) as ToolError).status).toBe(503);
    const syntax = Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' });
    expect(mapToolError(syntax)).toBe(syntax);
  });

  it('passes ToolErrors through and rethrows bugs unchanged', () => {
    const error = new ToolError(ToolErrorCode.WalletRequired, 'x');
    expect(mapToolError(error)).toBe(error);
    const bug = new TypeError('undefined is not a function');
    expect(mapToolError(bug)).toBe(bug);
  });
});
