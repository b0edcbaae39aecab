import { describe, expect, it } from 'vitest';
import { exportPosition } from './export-cursor.ts';

const mark = { xid: '0', id: '0' };

describe('exportPosition', () => {
  it('is the last change seen when every seen change is below the snapshot xmin', () => {
    expect(exportPosition({ xmin: '900', last: { xid: '899', id: '42' }, retainedFrom: mark })).toEqual({
      kind: 'position',
      at: { xid: '899', id: '42' },
    });
  });
  it('retakes the snapshot when a seen change is at or above xmin (an older transaction may still add changes before it)', () => {
    expect(exportPosition({ xmin: '900', last: { xid: '900', id: '1' }, retainedFrom: mark })).toEqual({
      kind: 'retake',
    });
    expect(exportPosition({ xmin: '900', last: { xid: '950', id: '1' }, retainedFrom: mark }).kind).toBe(
      'retake',
    );
  });
  it('is the retention mark when no change is left, or the feed start (0, 0) when none was ever pruned', () => {
    expect(exportPosition({ xmin: '5', last: undefined, retainedFrom: { xid: '3', id: '7' } })).toEqual({
      kind: 'position',
      at: { xid: '3', id: '7' },
    });
    expect(exportPosition({ xmin: '5', last: undefined, retainedFrom: mark })).toEqual({
      kind: 'position',
      at: mark,
    });
  });
  it('never names a position before the retention mark (which the feed would answer 410)', () => {
    expect(
      exportPosition({ xmin: '90', last: { xid: '10', id: '5' }, retainedFrom: { xid: '10', id: '9' } }),
    ).toEqual({ kind: 'position', at: { xid: '10', id: '9' } });
  });
  it('compares xids as 64-bit numbers, not as text', () => {
    expect(
      exportPosition({ xmin: '10000000000', last: { xid: '9999999999', id: '1' }, retainedFrom: mark }).kind,
    ).toBe('position');
    expect(exportPosition({ xmin: '9', last: { xid: '10', id: '1' }, retainedFrom: mark }).kind).toBe(
      'retake',
    );
  });
});
