import { describe, expect, it } from 'vitest';
import { grants, SCOPES } from './scopes.ts';

describe('grants', () => {
  it('a scope grants itself and nothing else, tasks:write also tasks:read', () => {
    for (const held of SCOPES)
      for (const needed of SCOPES)
        expect(grants([held], needed)).toBe(
          held === needed || (held === 'tasks:write' && needed === 'tasks:read'),
        );
  });
  it('tasks:read does not grant tasks:write', () => {
    expect(grants(['tasks:read'], 'tasks:write')).toBe(false);
  });
  it('any-key needs no scope; no scopes grant nothing else', () => {
    expect(grants([], 'any-key')).toBe(true);
    expect(grants([], 'curate')).toBe(false);
  });
});
