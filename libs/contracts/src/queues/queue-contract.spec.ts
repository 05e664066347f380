import { z } from 'zod';
import { defineQueue, InvalidJobPayloadError, parseJob } from './queue-contract';

const contract = defineQueue('demo', { ping: z.object({ n: z.number().int() }).strict() });

describe('queue contracts', () => {
  it('freezes names and job schemas', () => {
    expect(Object.isFrozen(contract)).toBe(true);
    expect(Object.isFrozen(contract.jobs)).toBe(true);
  });

  it('accepts a valid payload', () => {
    expect(parseJob(contract, 'ping', { n: 1 })).toEqual({ name: 'ping', data: { n: 1 } });
  });

  it('rejects unknown jobs and bad payloads with the field named', () => {
    expect(() => parseJob(contract, 'pong', {})).toThrow(InvalidJobPayloadError);
    expect(() => parseJob(contract, 'ping', { n: 'x' })).toThrow(/n:/);
    expect(() => parseJob(contract, 'ping', { n: 1, extra: true })).toThrow(InvalidJobPayloadError);
  });
});
