import { describe, expect, it } from 'vitest';
import { changeFeedWindow } from '../../src/alerts/change-feed-window.js';

describe('changeFeedWindow', () => {
  it('is the days between the two snapshots, as the view’s days-back', () => {
    expect(changeFeedWindow('2025-02-28', '2025-03-01')).toEqual({ 'days-back': '1' });
    expect(changeFeedWindow('2025-02-22T00:00:00Z', '2025-03-01')).toEqual({ 'days-back': '7' });
    expect(changeFeedWindow('2025-01-30', '2025-03-01')).toEqual({ 'days-back': '30' });
  });

  it('is none where the view could not show it: no day, not a date, a reversed or too wide window', () => {
    expect(changeFeedWindow(null, '2025-03-01')).toEqual({});
    expect(changeFeedWindow('2025-02-28', undefined)).toEqual({});
    expect(changeFeedWindow('yesterday', '2025-03-01')).toEqual({});
    expect(changeFeedWindow('2025-02-30', '2025-03-01')).toEqual({});
    expect(changeFeedWindow('2025-03-01', '2025-03-01')).toEqual({});
    expect(changeFeedWindow('2025-03-02', '2025-03-01')).toEqual({});
    expect(changeFeedWindow('2025-01-01', '2025-03-01')).toEqual({});
  });
});
