import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, issueDetails, toAppError } from './errors.ts';

describe('AppError', () => {
  it.each([
    ['VALIDATION', 400, 'Validation error'],
    ['INVALID_EXPLORATION_DATA', 400, 'Invalid exploration data format'],
    ['UNAUTHORIZED', 401, 'Unauthorized'],
    ['NOT_FOUND', 404, 'Not Found'],
    ['METHOD_NOT_ALLOWED', 405, 'Method Not Allowed'],
    ['CONFLICT', 409, 'Conflict'],
    ['PAYLOAD_TOO_LARGE', 413, 'Payload too large'],
    ['INTERNAL', 500, 'Internal server error'],
  ] as const)('%s is %i %s', (kind, status, error) => {
    const e = new AppError(kind, ['d']);
    expect(e.status).toBe(status);
    expect(e.body).toEqual({ success: false, error, details: ['d'] });
  });
});

describe('toAppError', () => {
  it('turns a wrapped schema error into one detail per issue, dotted from the root', () => {
    const parsed = z.object({ a: z.array(z.object({ b: z.string() })) }).safeParse({ a: [{ b: 1 }] });
    const wrapped = new TRPCError({ code: 'BAD_REQUEST', cause: parsed.error });
    const e = toAppError(wrapped);
    expect(e.kind).toBe('VALIDATION');
    expect(e.details).toEqual(['a.0.b: Invalid input: expected string, received number']);
  });

  it('keeps an AppError, also when tRPC wrapped it', () => {
    const original = new AppError('CONFLICT', ['x']);
    expect(toAppError(original)).toBe(original);
    expect(toAppError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: original }))).toBe(original);
  });

  it('hides anything unexpected behind a generic 500', () => {
    const e = toAppError(new Error('relation "secret_table" does not exist'));
    expect(e.status).toBe(500);
    expect(e.details.join()).not.toContain('secret_table');
  });

  it('names the body root when the issue has no path', () => {
    expect(issueDetails([{ path: [], message: 'm' }])).toEqual(['body: m']);
    expect(issueDetails([{ path: [], message: 'm' }], ['explorationData'])).toEqual(['explorationData: m']);
    expect(issueDetails([{ path: [], message: 'm' }], [], 'query')).toEqual(['query: m']);
  });
});
