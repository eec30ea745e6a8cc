import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Database } from '../db/database.js';
import { COMPANIONS } from '../config.js';
import { questionExportPath } from './counts.js';
import { finalQuestions } from './final.service.js';
import { listReviewQuestions, listReviewSegments } from './review.repository.js';
import { listVariants } from './variants.repository.js';
import { listGeneratedSegments } from './segments.repository.js';

export interface ExportResult {
  file_path: string;
  file_url: string;
}

/** The URL that serves a video's export (GET route in questions.routes.ts). */
export const questionExportUrl = (videoId: string): string => `/api/questions-export/${encodeURIComponent(videoId)}`;

/** A snapshot of everything the database holds about a video's questions (the DB stays authoritative). */
export async function buildQuestionExport(db: Database, videoId: string): Promise<Record<string, unknown>> {
  const questions = await listReviewQuestions(db, videoId);
  const variants = await listVariants(db, videoId);
  const final: [string, unknown][] = [['base', await finalQuestions(db, videoId, null)]];
  for (const c of COMPANIONS) final.push([c, await finalQuestions(db, videoId, c)]);
  return {
    video_id: videoId,
    exported_at: new Date().toISOString(),
    generated: (await listGeneratedSegments(db, videoId)).map((s) =>
      s.status === 'ok'
        ? { segment_range_start: s.start, segment_range_end: s.end, status: 'ok', provider: s.provider, model: s.model, questions: s.result.questions }
        : { segment_range_start: s.start, segment_range_end: s.end, status: 'error', provider: s.provider, model: s.model, error: s.error },
    ),
    review: (await listReviewSegments(db, videoId)).map((seg) => ({
      segment_range_start: seg.start,
      segment_range_end: seg.end,
      finalized: seg.finalized,
      questions: questions
        .filter((q) => q.segment_range_start === seg.start && q.segment_range_end === seg.end)
        .map((q) => ({ ...q, variants: variants.filter((v) => v.question_id === q.id) })),
    })),
    final: Object.fromEntries(final),
  };
}

/** Writes the export atomically (temp file + rename) to dataDir/videos/<id>/questions.json. */
export async function writeQuestionExport(db: Database, dataDir: string, videoId: string): Promise<ExportResult> {
  const file = questionExportPath(dataDir, videoId);
  // one transaction: a consistent snapshot even while an expert saves
  const content = JSON.stringify(await db.transaction((tx) => buildQuestionExport(tx, videoId)), null, 2);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  try {
    fs.writeFileSync(tmp, content);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  return { file_path: file, file_url: questionExportUrl(videoId) };
}
