import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SAMPLE_DIR, readSampleManifest } from '../../src/sample/sample.service.js';
import { reviewedQuestionsImportSchema } from '../../src/questions/import.js';
import { COMPANIONS } from '../../src/config.js';
import { VIDEO_ID_RE } from '../../src/http/ids.js';
import { buildManifest, frameManifestSchema } from '../../src/pipeline/frames.js';
import { parseVtt as pipelineParseVtt } from '../../src/pipeline/subtitles.js';

// The committed sample itself: a valid, small, browser-playable video whose frames, subtitles
// and questions agree with each other.

const manifest = readSampleManifest();
const media = path.join(SAMPLE_DIR, 'media');
const videoFile = path.join(media, manifest.files.video);
const framesDir = path.join(media, manifest.files.frames_dir);

function ffprobe(file: string): { streams: Record<string, unknown>[]; format: Record<string, unknown> } {
  return JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file], { encoding: 'utf8' }));
}

/** the picture at `seconds`, decoded from the video at the frames' size, as grey bytes */
function grabGrey(seconds: number, width: number, height: number): Buffer {
  return execFileSync('ffmpeg', ['-v', 'error', '-ss', String(seconds), '-i', videoFile, '-frames:v', '1', '-vf', `scale=${width}:${height}`, '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], { maxBuffer: 1 << 24 });
}

function jpegGrey(file: string, width: number, height: number): Buffer {
  return execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-vf', `scale=${width}:${height}`, '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], { maxBuffer: 1 << 24 });
}

const meanDiff = (a: Buffer, b: Buffer) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
};

function parseVtt(text: string): { start: number; end: number; text: string }[] {
  const secs = (s: string) => {
    const [h, m, rest] = s.split(':');
    return Number(h) * 3600 + Number(m) * 60 + Number(rest);
  };
  return text
    .split(/\n\n+/)
    .slice(1)
    .filter((b) => b.includes('-->'))
    .map((block) => {
      const lines = block.trim().split('\n');
      const timing = lines.findIndex((l) => l.includes('-->'));
      const [a, b] = lines[timing]!.split(' --> ');
      return { start: secs(a!), end: secs(b!), text: lines.slice(timing + 1).join('\n') };
    });
}

describe('bundled sample media', () => {
  it('has a video id the strict pattern accepts and that cannot be a platform id', () => {
    expect(manifest.video_id).toMatch(VIDEO_ID_RE);
    expect(manifest.video_id).toMatch(/^sample-/);
    expect(manifest.video_id.length).not.toBe(11);
  });

  it('is an H.264 (yuv420p, main) + AAC MP4 under a minute with the moov box first', () => {
    const info = ffprobe(videoFile);
    const video = info.streams.find((s) => s.codec_type === 'video')!;
    const audio = info.streams.find((s) => s.codec_type === 'audio')!;
    expect(video.codec_name).toBe('h264');
    expect(['Main', 'Constrained Baseline', 'Baseline']).toContain(video.profile);
    expect(video.pix_fmt).toBe('yuv420p');
    expect(audio.codec_name).toBe('aac');
    const duration = Number(info.format.duration);
    expect(duration).toBeGreaterThan(30);
    expect(duration).toBeLessThan(60);
    expect(Math.abs(duration - manifest.duration_seconds)).toBeLessThan(0.05);
    // faststart: the browser can start playing before the whole file arrived
    const head = fs.readFileSync(videoFile).subarray(0, 64 * 1024).toString('latin1');
    expect(head.indexOf('moov')).toBeGreaterThan(0);
    expect(head.indexOf('moov')).toBeLessThan(head.indexOf('mdat') === -1 ? Infinity : head.indexOf('mdat'));
  });

  it('matches its manifest byte for byte and stays small', () => {
    let total = 0;
    for (const [rel, sum] of Object.entries(manifest.checksums)) {
      const data = fs.readFileSync(path.join(media, rel));
      expect(data.length, rel).toBe(sum.bytes);
      total += data.length;
    }
    const onDisk = fs.readdirSync(framesDir).length + fs.readdirSync(media).length - 1;
    expect(onDisk).toBe(Object.keys(manifest.checksums).length);
    expect(total).toBeLessThan(6 * 1024 * 1024);
  });

  it('has one frame per second, frame k taken at t = k s, in frames.json and frames.csv', () => {
    const json = JSON.parse(fs.readFileSync(path.join(framesDir, 'frames.json'), 'utf8'));
    expect(Object.keys(json).sort()).toEqual(['count', 'fps', 'frames', 'video_id']);
    expect(json.video_id).toBe(manifest.video_id);
    expect(json.fps).toBe(1);
    expect(json.count).toBe(Math.ceil(manifest.duration_seconds));
    expect(json.frames).toHaveLength(json.count);
    expect(manifest.frame_count).toBe(json.count);
    const csv = fs.readFileSync(path.join(framesDir, 'frames.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('frame,timestamp,time,file,subtitle');
    expect(csv).toHaveLength(json.count + 1);
    json.frames.forEach((f: Record<string, unknown>, k: number) => {
      expect(Object.keys(f).sort()).toEqual(['file', 'frame', 'subtitle', 'time', 'timestamp']);
      expect(f.frame).toBe(k);
      expect(f.timestamp).toBe(k);
      expect(f.time).toBe(`00:00:${String(k).padStart(2, '0')}`);
      expect(f.file).toBe(`frame_${String(k).padStart(5, '0')}.jpg`);
      expect(fs.existsSync(path.join(framesDir, f.file as string))).toBe(true);
      expect(csv[k + 1]!.startsWith(`${k},${k},${f.time},${f.file},`)).toBe(true);
    });
  });

  it('takes frame k at t = k, not half a second later (checked where the ball rolls away)', () => {
    // in scene 2 the ball rolls across the screen from 13.2 s to 15.6 s: pictures differ every instant
    const json = JSON.parse(fs.readFileSync(path.join(framesDir, 'frames.json'), 'utf8'));
    const first = jpegGrey(path.join(framesDir, json.frames[0].file), 320, 180);
    expect(first.length).toBe(320 * 180);
    for (const k of [14, 15]) {
      const frame = jpegGrey(path.join(framesDir, json.frames[k].file), 320, 180);
      const atK = meanDiff(frame, grabGrey(k, 320, 180));
      const late = meanDiff(frame, grabGrey(k + 0.5, 320, 180));
      expect(atK).toBeLessThan(late);
    }
  });

  it("agrees with the pipeline's own frame manifest built from the same frames and subtitles", () => {
    const json = JSON.parse(fs.readFileSync(path.join(framesDir, 'frames.json'), 'utf8'));
    expect(frameManifestSchema.safeParse(json).success).toBe(true);
    const names = fs.readdirSync(framesDir).filter((f) => f.endsWith('.jpg')).sort();
    const cues = pipelineParseVtt(fs.readFileSync(path.join(media, manifest.files.subtitles), 'utf8'));
    expect(buildManifest(manifest.video_id, names, cues)).toEqual(json);
  });

  it('has English subtitles matching the narration, joined to the frames', () => {
    const vtt = fs.readFileSync(path.join(media, manifest.files.subtitles), 'utf8');
    expect(vtt.startsWith('WEBVTT\n')).toBe(true);
    const cues = parseVtt(vtt);
    expect(cues.length).toBeGreaterThanOrEqual(8);
    for (const [i, c] of cues.entries()) {
      expect(c.end).toBeGreaterThan(c.start);
      expect(c.end).toBeLessThanOrEqual(manifest.duration_seconds);
      if (i > 0) expect(c.start).toBeGreaterThanOrEqual(cues[i - 1]!.end);
    }
    const json = JSON.parse(fs.readFileSync(path.join(framesDir, 'frames.json'), 'utf8'));
    for (const f of json.frames) {
      const cue = cues.find((c) => c.start <= f.timestamp && f.timestamp < c.end);
      expect(f.subtitle).toBe(cue ? cue.text : '');
    }
    expect(vtt).toContain('red ball');
  });
});

describe('bundled sample questions', () => {
  const raw = JSON.parse(fs.readFileSync(path.join(SAMPLE_DIR, 'questions.json'), 'utf8'));

  it("is valid against the question engineer's import schema", () => {
    const parsed = reviewedQuestionsImportSchema.safeParse(raw);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(raw.video_id).toBe(manifest.video_id);
  });

  it("covers the video with the manifest's segments, every one finalized", () => {
    const ranges = raw.segments.map((s: Record<string, number>) => [s.segment_range_start, s.segment_range_end]);
    expect(ranges).toEqual(manifest.segments.map((s) => [s.start, s.end]));
    expect(ranges[0][0]).toBe(0);
    expect(ranges.at(-1)[1]).toBe(Math.round(manifest.duration_seconds));
    for (let i = 1; i < ranges.length; i++) expect(ranges[i][0]).toBe(ranges[i - 1][1]);
    for (const s of raw.segments) {
      expect(s.finalized).toBe(true);
      expect(s.segment_range_end - s.segment_range_start).toBeGreaterThanOrEqual(10);
      expect(s.segment_range_end - s.segment_range_start).toBeLessThanOrEqual(15);
    }
  });

  it('words every question for all three companions, one chosen per segment and companion', () => {
    const types = new Set<string>();
    for (const s of raw.segments) {
      const top = [...s.questions].sort((a, b) => a.expert_ranking - b.expert_ranking)[0];
      for (const q of s.questions) {
        types.add(q.question_type);
        expect(q.answer.split(/\s+/).length, q.answer).toBeLessThanOrEqual(4);
        expect(typeof q.llm_ranking).toBe('number');
        expect(typeof q.expert_ranking).toBe('number');
        expect(q.variants.map((v: { companion: string }) => v.companion).sort()).toEqual([...COMPANIONS].sort());
        for (const v of q.variants) {
          expect(v.question).not.toBe(q.question);
          // the reworded question must not give its answer away
          expect(v.question.toLowerCase()).not.toContain(q.answer.toLowerCase());
        }
      }
      for (const c of COMPANIONS) {
        const chosen = s.questions.flatMap((q: { variants: { companion: string; chosen?: boolean }[] }) => q.variants.filter((v) => v.companion === c && v.chosen));
        expect(chosen).toHaveLength(1);
        expect(top.variants).toContainEqual(chosen[0]);
      }
    }
    expect(types.size).toBeGreaterThanOrEqual(6);
  });
});
