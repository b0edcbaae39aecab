import { describe, expect, it } from 'vitest';
import { TASK_STATUSES } from '../schemas/task.ts';
import { COMPLETABLE, completeChange, failChange, patchTransition } from './task-transitions.ts';

describe('patchTransition', () => {
  const allowed = new Set([
    'PENDING→IN_PROGRESS',
    'IN_PROGRESS→COMPLETED',
    'IN_PROGRESS→FAILED',
    'FAILED→PENDING',
  ]);

  it('allows exactly the four moves of the TaskStatus table', () => {
    for (const from of TASK_STATUSES) {
      for (const to of TASK_STATUSES) {
        expect(patchTransition(from, to) !== undefined, `${from}→${to}`).toBe(allowed.has(`${from}→${to}`));
      }
    }
  });

  it('sets startedAt on IN_PROGRESS, completedAt on COMPLETED and FAILED', () => {
    expect(patchTransition('PENDING', 'IN_PROGRESS')).toMatchObject({
      startedAt: 'now',
      completedAt: 'keep',
    });
    expect(patchTransition('IN_PROGRESS', 'COMPLETED')).toMatchObject({ completedAt: 'now' });
    expect(patchTransition('IN_PROGRESS', 'FAILED')).toMatchObject({ completedAt: 'now' });
  });

  it('counts a retry and clears both timestamps, keeping the error message', () => {
    const retry = patchTransition('FAILED', 'PENDING');
    expect(retry).toMatchObject({ countRetry: true, startedAt: 'clear', completedAt: 'clear' });
    expect(retry).not.toHaveProperty('errorMessage');
  });
});

describe('complete', () => {
  it('starts from every state but COMPLETED', () => {
    expect([...COMPLETABLE].sort()).toEqual(['FAILED', 'IN_PROGRESS', 'PENDING']);
  });

  it('links the project, clears the error and sets startedAt only when missing', () => {
    expect(completeChange('p1', { a: 1 })).toMatchObject({
      status: 'COMPLETED',
      projectId: 'p1',
      errorMessage: null,
      startedAt: 'now-if-null',
      completedAt: 'now',
    });
  });

  it('records a failure cut to 2000 characters', () => {
    expect(failChange('x'.repeat(5000)).errorMessage).toHaveLength(2000);
    expect(failChange('😀'.repeat(2001)).errorMessage).toBe('😀'.repeat(2000));
  });
});
