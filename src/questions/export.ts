import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Db } from '../db/database.js';
import { COMPANIONS } from '../config.js';
import { questionExportPath } from './counts.js';
import { finalQuestions } from './final.service.js';
import { listReviewQuestions, listReviewSegments, listVariants } from './review.repository.js';
import { listGeneratedSegments } from './segments.repository.js';

export interface ExportResult {
  file_path: string;
  file_url: string;
}

/** The URL that serves a video's export (GET route in questions.routes.ts). */
export const questionExportUrl = (videoId: string): string => `/api/questions-export/${encodeURIComponent(videoId)}`;

/** A snapshot of everything the database holds about a video's questions (the DB stays authoritative). */
export function buildQuestionExport(db: Db, videoId: string): Record<string, unknown> {
  const questions = listReviewQuestions(db, videoId);
  const variants = listVariants(db, videoId);
  return {
    video_id: videoId,
    exported_at: new Date().toISOString(),
    generated: listGeneratedSegments(db, videoId).map((s) =>
      s.status === 'ok'
        ? { segment_range_start: s.start, segment_range_end: s.end, status: 'ok', provider: s.provider, model: s.model, questions: s.result.questions }
        : { segment_range_start: s.start, segment_range_end: s.end, status: 'error', provider: s.provider, model: s.model, error: s.error },
    ),
    review: listReviewSegments(db, videoId).map((seg) => ({
      segment_range_start: seg.start,
      segment_range_end: seg.end,
      finalized: seg.finalized,
      questions: questions
        .filter((q) => q.segment_range_start === seg.start && q.segment_range_end === seg.end)
        .map((q) => ({ ...q, variants: variants.filter((v) => v.question_id === q.id) })),
    })),
    final: Object.fromEntries([
      ['base', finalQuestions(db, videoId, null)],
      ...COMPANIONS.map((c) => [c, finalQuestions(db, videoId, c)]),
    ]),
  };
}

/** Writes the export atomically (temp file + rename) to dataDir/videos/<id>/questions.json. */
export function writeQuestionExport(db: Db, dataDir: string, videoId: string): ExportResult {
  const file = questionExportPath(dataDir, videoId);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  try {
    fs.writeFileSync(tmp, JSON.stringify(buildQuestionExport(db, videoId), null, 2));
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  return { file_path: file, file_url: questionExportUrl(videoId) };
}
