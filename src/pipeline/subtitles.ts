/**
 * WebVTT (and SRT, which differs only in details) → timed cues, and the text showing at a moment.
 * Platform automatic captions repeat the previous line in each cue and carry inline timing tags
 * (`<00:00:01.500><c>word</c>`); tags are removed and repeated lines are shown once.
 */
export interface Cue {
  start: number;
  end: number;
  text: string;
}

const TIME = String.raw`(?:(\d+):)?(\d{1,2}):(\d{2})[.,](\d{1,3})`;
const TIMING_RE = new RegExp(`^\\s*${TIME}\\s*-->\\s*${TIME}`);

export function parseVtt(source: string): Cue[] {
  const cues: Cue[] = [];
  const blocks = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split(/\n{2,}/);
  for (const block of blocks) {
    const lines = block.split('\n');
    const at = lines.findIndex((l) => l.includes('-->'));
    if (at < 0) continue;
    const m = TIMING_RE.exec(lines[at]!);
    if (!m) continue;
    const start = toSeconds(m[1], m[2]!, m[3]!, m[4]!);
    const end = toSeconds(m[5], m[6]!, m[7]!, m[8]!);
    const text = lines
      .slice(at + 1)
      .map(cleanLine)
      .filter(Boolean)
      .join('\n');
    if (text && end > start) cues.push({ start, end, text });
  }
  return cues.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** The subtitle text on screen at `t` seconds ('' when none): every active cue, each line once. */
export function subtitleAt(cues: readonly Cue[], t: number): string {
  const lines: string[] = [];
  for (const cue of cues) {
    if (cue.start > t) break;
    if (t < cue.end) for (const line of cue.text.split('\n')) if (!lines.includes(line)) lines.push(line);
  }
  return lines.join(' ');
}

/** The subtitle text of a time range [from, to), each line once, for transcripts. */
export function subtitleBetween(cues: readonly Cue[], from: number, to: number): string {
  const lines: string[] = [];
  for (const cue of cues) {
    if (cue.start >= to) break;
    if (cue.end > from) for (const line of cue.text.split('\n')) if (!lines.includes(line)) lines.push(line);
  }
  return lines.join(' ');
}

/** 75 → "00:01:15" (frames manifests). */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** 75 → "1:15", 3725 → "1:02:05" (how players show a length). */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

function toSeconds(h: string | undefined, m: string, s: string, frac: string): number {
  return Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + Number(frac.padEnd(3, '0')) / 1000;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', lrm: '', rlm: '' };

function cleanLine(line: string): string {
  return line
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (all, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : '';
      }
      return ENTITIES[name.toLowerCase()] ?? all;
    })
    .replace(/\s+/g, ' ')
    .trim();
}
