import { describe, expect, it } from 'vitest';
import { barRects, linePath } from '../../src/islands/consumption/CompactGraph.tsx';

describe('barRects (the dashboard cards’ small bar graphs)', () => {
  it('scales the tallest bar to the full height, from the zero line up, one slot per bucket', () => {
    const rects = barRects([10, 5, 0], 100);
    expect(rects.map((r) => r && { y: r.y, height: r.height })).toEqual([
      { y: 0, height: 100 },
      { y: 50, height: 50 },
      { y: 100, height: 0 },
    ]);
    expect(rects.map((r) => r?.x)).toEqual([1.9, 11.9, 21.9]);
  });

  it('leaves a gap for a missing value instead of drawing zero', () => {
    const rects = barRects([4, null, Number.NaN, 2], 40);
    expect(rects[1]).toBeNull();
    expect(rects[2]).toBeNull();
    expect(rects[3]).toMatchObject({ y: 20, height: 20 });
  });

  it('draws a negative value down from a zero line inside the drawing', () => {
    const rects = barRects([3, -1], 40);
    // Zero sits at 3/4 of the height; the negative bar hangs below it to the bottom.
    expect(rects[0]).toMatchObject({ y: 0, height: 30 });
    expect(rects[1]).toMatchObject({ y: 30, height: 10 });
  });

  it('draws nothing taller than the drawing when every value is zero or missing', () => {
    expect(barRects([0, null, 0], 50).map((r) => r?.height ?? null)).toEqual([0, null, 0]);
  });
});

describe('linePath (a card’s small line, for an averaged quantity)', () => {
  it('runs from the highest value at the top to the lowest at the bottom, through the bucket centres', () => {
    expect(linePath([10, 20, 15], 44)).toBe('M 5 42 L 5 42 L 15 2 L 25 22');
  });

  it('breaks at a missing value, and shows a value alone between gaps as a dot', () => {
    expect(linePath([1, null, 3, Number.NaN, 2, 3], 44)).toBe(
      'M 5 42 L 5 42 M 25 2 L 25 2 M 45 22 L 45 22 L 55 2',
    );
  });

  it('draws a flat series across the middle', () => {
    expect(linePath([7, 7], 40)).toBe('M 5 20 L 5 20 L 15 20');
  });

  it('draws nothing when there is no value', () => {
    expect(linePath([null, null], 40)).toBe('');
  });
});
