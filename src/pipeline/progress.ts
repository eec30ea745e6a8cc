/**
 * Parsers of the tools' own progress output (pure functions, tested by exact input):
 * - yt-dlp: `--newline --progress-template` prints one line per progress report in a format we
 *   choose (https://github.com/yt-dlp/yt-dlp#output-template: fields yt-dlp does not know print
 *   as "NA"); a video + audio download reports each file from 0 to 100 %.
 * - ffmpeg: `-progress pipe:1` prints key=value blocks ending in `progress=continue|end`;
 *   `out_time_us` is the position reached in the output (https://ffmpeg.org/ffmpeg.html#Advanced-options).
 */

/** The marker that tells our progress lines from anything else yt-dlp prints. */
export const YTDLP_PROGRESS_MARK = 'kvq-progress';

export const YTDLP_PROGRESS_TEMPLATE =
  `download:${YTDLP_PROGRESS_MARK} %(progress.status)s %(progress.downloaded_bytes)s %(progress.total_bytes)s ` +
  '%(progress.total_bytes_estimate)s %(progress.fragment_index)s %(progress.fragment_count)s';

export interface YtdlpProgress {
  status: string;
  /** 0..1 of the file being downloaded, undefined when yt-dlp knows no total yet */
  fraction: number | undefined;
  downloadedBytes: number | undefined;
}

export function parseYtdlpProgress(line: string): YtdlpProgress | undefined {
  const at = line.indexOf(YTDLP_PROGRESS_MARK);
  if (at < 0) return undefined;
  const [status, downloaded, total, estimate, fragIndex, fragCount] = line
    .slice(at + YTDLP_PROGRESS_MARK.length)
    .trim()
    .split(/\s+/);
  if (!status) return undefined;
  const num = (s: string | undefined) => {
    const n = s === undefined || s === 'NA' ? NaN : Number(s);
    return Number.isFinite(n) ? n : undefined;
  };
  const bytes = num(downloaded);
  const size = num(total) ?? num(estimate);
  const fi = num(fragIndex);
  const fc = num(fragCount);
  let fraction: number | undefined;
  if (status === 'finished') fraction = 1;
  else if (bytes !== undefined && size && size > 0) fraction = Math.min(1, bytes / size);
  else if (fi !== undefined && fc && fc > 0) fraction = Math.min(1, fi / fc);
  return { status, fraction, downloadedBytes: bytes };
}

/**
 * Turns yt-dlp's per-file progress into one 0..1 for the whole download, given how many files
 * it fetches (2 for a separate video and audio stream that are then merged).
 */
export class YtdlpProgressTracker {
  private filesDone = 0;
  private current = 0;

  constructor(private readonly files: number) {}

  /** the overall fraction after this line, or undefined when the line is not a progress report */
  push(line: string): number | undefined {
    const p = parseYtdlpProgress(line);
    if (!p) return undefined;
    if (p.status === 'finished') {
      this.filesDone = Math.min(this.files, this.filesDone + 1);
      this.current = 0;
    } else if (p.fraction !== undefined) {
      this.current = p.fraction;
    }
    return Math.min(1, (this.filesDone + this.current) / Math.max(1, this.files));
  }
}

/**
 * Reads ffmpeg's `-progress` output; `push` returns the fraction of `durationSeconds` reached
 * after each complete block (1 at `progress=end`), undefined for the other lines.
 */
export class FfmpegProgressParser {
  private outTimeUs: number | undefined;
  private hasUs = false;

  constructor(private readonly durationSeconds: number) {}

  push(line: string): number | undefined {
    const eq = line.indexOf('=');
    if (eq < 0) return undefined;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    // out_time_ms is in microseconds too (an old ffmpeg naming mistake); prefer out_time_us
    if (key === 'out_time_us' || (key === 'out_time_ms' && !this.hasUs)) {
      if (key === 'out_time_us') this.hasUs = true;
      const n = Number(value);
      if (Number.isFinite(n) && n >= 0) this.outTimeUs = n;
      return undefined;
    }
    if (key !== 'progress') return undefined;
    if (value === 'end') return 1;
    if (this.outTimeUs === undefined || !(this.durationSeconds > 0)) return undefined;
    return Math.min(1, this.outTimeUs / 1e6 / this.durationSeconds);
  }
}
