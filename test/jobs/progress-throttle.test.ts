import { describe, expect, it } from 'vitest';
import { clampFraction, ProgressThrottle } from '../../src/jobs/progress-throttle.js';

describe('ProgressThrottle (a clock the test moves)', () => {
  it('passes the first report, then only steps of 1 % at least 250 ms apart', () => {
    let now = 1000;
    const t = new ProgressThrottle(250, 0.01, () => now);
    expect(t.accept(0, 'Downloading')).toBe(0);
    now += 10;
    expect(t.accept(0.5, 'Downloading')).toBeUndefined(); // too soon
    now += 300;
    expect(t.accept(0.005, 'Downloading')).toBeUndefined(); // too small
    expect(t.accept(0.5, 'Downloading')).toBe(0.5);
    now += 300;
    expect(t.accept(0.4, 'Downloading')).toBe(0.4); // a retry may go back
  });

  it('always passes a new message and the first 100 %', () => {
    let now = 0;
    const t = new ProgressThrottle(250, 0.01, () => now);
    expect(t.accept(0.1, 'Downloading')).toBe(0.1);
    expect(t.accept(0.1, 'Fetching subtitles')).toBe(0.1);
    expect(t.accept(1, 'Fetching subtitles')).toBe(1);
    expect(t.accept(1, 'Fetching subtitles')).toBeUndefined();
    now += 1;
  });

  it('clamps to 0..1 and drops noise digits', () => {
    expect(clampFraction(-1)).toBe(0);
    expect(clampFraction(Number.NaN)).toBe(0);
    expect(clampFraction(1.7)).toBe(1);
    expect(clampFraction(0.123456)).toBe(0.1235);
  });
});
