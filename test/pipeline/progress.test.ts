import { describe, expect, it } from 'vitest';
import { FfmpegProgressParser, parseYtdlpProgress, YtdlpProgressTracker, YTDLP_PROGRESS_TEMPLATE } from '../../src/pipeline/progress.js';

/** Lines as yt-dlp 2023.03.04 prints them with our --progress-template (fields it lacks print "NA"). */
describe('yt-dlp progress lines', () => {
  it('the template names every field it prints', () => {
    expect(YTDLP_PROGRESS_TEMPLATE).toBe(
      'download:kvq-progress %(progress.status)s %(progress.downloaded_bytes)s %(progress.total_bytes)s %(progress.total_bytes_estimate)s %(progress.fragment_index)s %(progress.fragment_count)s',
    );
  });

  it('reads bytes against the total, the estimate, or fragments', () => {
    expect(parseYtdlpProgress('kvq-progress downloading 1024 4096 NA NA NA')).toEqual({ status: 'downloading', fraction: 0.25, downloadedBytes: 1024 });
    expect(parseYtdlpProgress('kvq-progress downloading 300 NA 1200.5 NA NA')?.fraction).toBeCloseTo(0.2499, 3);
    expect(parseYtdlpProgress('kvq-progress downloading 5000 NA NA 3 12')?.fraction).toBe(0.25);
    expect(parseYtdlpProgress('kvq-progress downloading 5000 NA NA NA NA')).toEqual({ status: 'downloading', fraction: undefined, downloadedBytes: 5000 });
    expect(parseYtdlpProgress('kvq-progress finished 4096 4096 NA NA NA')?.fraction).toBe(1);
  });

  it('ignores every other line, and never reports more than 1', () => {
    expect(parseYtdlpProgress('[download] Destination: /w/video.mp4')).toBeUndefined();
    expect(parseYtdlpProgress('[generic] clip: Downloading webpage')).toBeUndefined();
    expect(parseYtdlpProgress('kvq-progress')).toBeUndefined();
    expect(parseYtdlpProgress('kvq-progress downloading 9000 4096 NA NA NA')?.fraction).toBe(1);
  });

  it('a video + audio download counts each file as half', () => {
    const t = new YtdlpProgressTracker(2);
    expect(t.push('[info] Downloading 1 format(s): 136+140')).toBeUndefined();
    expect(t.push('kvq-progress downloading 50 100 NA NA NA')).toBe(0.25);
    expect(t.push('kvq-progress finished 100 100 NA NA NA')).toBe(0.5);
    expect(t.push('kvq-progress downloading 50 100 NA NA NA')).toBe(0.75);
    expect(t.push('kvq-progress finished 100 100 NA NA NA')).toBe(1);
    // a third "finished" (a thumbnail, a retry) never goes past 1
    expect(t.push('kvq-progress finished 100 100 NA NA NA')).toBe(1);
  });
});

/** Blocks as ffmpeg 5.1 prints them with -progress pipe:1 (out_time_ms is in microseconds too). */
describe('ffmpeg progress blocks', () => {
  const block = (us: number, end = false) => [
    'frame=20',
    'fps=0.00',
    'bitrate=N/A',
    `out_time_us=${us}`,
    `out_time_ms=${us}`,
    `out_time=00:00:0${us / 1e6}`,
    'speed=N/A',
    `progress=${end ? 'end' : 'continue'}`,
  ];
  const feed = (p: FfmpegProgressParser, lines: string[]) => lines.map((l) => p.push(l)).filter((f) => f !== undefined);

  it('reports out_time against the duration once per block, and 1 at the end', () => {
    const p = new FfmpegProgressParser(10);
    expect(feed(p, block(2_500_000))).toEqual([0.25]);
    expect(feed(p, block(5_000_000))).toEqual([0.5]);
    expect(feed(p, block(9_900_000, true))).toEqual([1]);
  });

  it('an unknown duration reports only the end; an older ffmpeg with out_time_ms only still works', () => {
    const unknown = new FfmpegProgressParser(0);
    expect(feed(unknown, block(2_000_000))).toEqual([]);
    expect(feed(unknown, block(3_000_000, true))).toEqual([1]);
    const old = new FfmpegProgressParser(4);
    expect(feed(old, ['out_time_ms=1000000', 'progress=continue', 'out_time_ms=3000000', 'progress=continue'])).toEqual([0.25, 0.75]);
  });

  it('never reports more than 1 (the last frame runs a little past the duration)', () => {
    const p = new FfmpegProgressParser(2);
    expect(feed(p, block(2_040_000))).toEqual([1]);
  });
});
