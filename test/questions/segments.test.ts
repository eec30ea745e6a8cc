import { describe, expect, it } from 'vitest';
import { jpegSize, manifestLines, planSegments, spread } from '../../src/questions/segment-input.js';
import { pool } from '../../src/questions/generation.service.js';
import { tinyJpeg } from './fixtures.js';

describe('planSegments', () => {
  it('covers the video from start_seconds in intervals, folding a short tail into the last segment', () => {
    expect(planSegments({ start_seconds: 0, interval_seconds: 10, full_duration: true }, 32)).toEqual([
      { start: 0, end: 10 }, { start: 10, end: 20 }, { start: 20, end: 32 },
    ]);
    expect(planSegments({ start_seconds: 5, interval_seconds: 10, full_duration: true }, 31)).toEqual([
      { start: 5, end: 15 }, { start: 15, end: 25 }, { start: 25, end: 31 },
    ]);
    expect(planSegments({ start_seconds: 20, interval_seconds: 30, full_duration: false }, 45)).toEqual([{ start: 20, end: 45 }]);
    expect(planSegments({ start_seconds: 50, interval_seconds: 10, full_duration: true }, 45)).toEqual([]);
  });
});

describe('frames and subtitles', () => {
  it('spreads up to k frames over a segment, ends included', () => {
    expect(spread([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 5)).toEqual([0, 2, 5, 7, 9]);
    expect(spread([1, 2], 5)).toEqual([1, 2]);
  });

  it('reads a JPEG size from its header', () => {
    expect(jpegSize(tinyJpeg('64x36'))).toEqual({ width: 64, height: 36 });
    expect(jpegSize(Buffer.from('not a jpeg'))).toBeNull();
  });

  it('turns per-second subtitles into lines starting where they first show', () => {
    const frame = (k: number, subtitle: string) => ({ frame: k, timestamp: k, time: '', file: `frame_${String(k).padStart(5, '0')}.jpg`, subtitle });
    const m = { video_id: 'v', fps: 1 as const, count: 5, frames: [frame(0, ''), frame(1, 'Hello.'), frame(2, 'Hello. Bye.'), frame(3, 'Bye.'), frame(4, '')] };
    expect(manifestLines(m)).toEqual([{ time: 1, text: 'Hello.' }, { time: 2, text: 'Bye.' }]);
  });
});

describe('pool', () => {
  it('never runs more than the limit and stops starting tasks after an abort', async () => {
    let running = 0;
    let max = 0;
    let started = 0;
    const controller = new AbortController();
    const tasks = Array.from({ length: 10 }, (_, i) => async () => {
      started++;
      running++;
      max = Math.max(max, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      if (i === 4) controller.abort();
    });
    await pool(tasks, 3, controller.signal);
    expect(max).toBe(3);
    expect(started).toBeLessThan(10);
  });
});
