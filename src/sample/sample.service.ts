import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Db } from '../db/database.js';
import { safeJoin } from '../http/ids.js';
import { importReviewedQuestions, type ImportSummary } from '../questions/import.js';
import { writeQuestionExport } from '../questions/export.js';
import { sampleManifestSchema, type SampleManifest } from './sample.schema.js';

/** The bundled sample in the repository: manifest.json, questions.json and media/. */
export const SAMPLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'sample');

export interface SampleImportResult {
  video_id: string;
  /** an admin deleted the sample (deleted_videos): nothing was imported or copied */
  deleted: boolean;
  /** the expert the new row was assigned to (the demo expert), or null */
  assigned_to: string | null;
  /** the media were (re)copied into dataDir/videos/<id>/ */
  copied: boolean;
  /** the videos row was inserted and the questions imported */
  inserted: boolean;
  questions: ImportSummary | null;
}

/** Reads and validates `<sampleDir>/manifest.json`. */
export function readSampleManifest(sampleDir = SAMPLE_DIR): SampleManifest {
  const raw: unknown = JSON.parse(fs.readFileSync(path.join(sampleDir, 'manifest.json'), 'utf8'));
  const parsed = sampleManifestSchema.safeParse(raw);
  if (!parsed.success) {
    const msg = parsed.error.issues.map((i) => `${i.path.join('.') || 'manifest'}: ${i.message}`).join('; ');
    throw new Error(`sample/manifest.json is invalid: ${msg}`);
  }
  return parsed.data;
}

/**
 * Makes sure the bundled sample is playable: copies its media into `dataDir/videos/<id>/` when
 * any file is missing there, and, when the database has no row for it, inserts the row and
 * imports its reviewed questions in one transaction. The sample is a library video like any
 * other: the new row is assigned to `assignTo` (the demo expert, when there is one) and is
 * otherwise available for experts to claim. A sample an admin deleted (a deleted_videos row)
 * is left deleted. Everything already in place is left alone, so a second run changes nothing,
 * and an expert's later edits to the sample's questions and an admin's unassigning survive
 * restarts. No ffmpeg: the files are prebuilt.
 */
export async function importSample(db: Db, dataDir: string, sampleDir = SAMPLE_DIR, assignTo: string | null = null): Promise<SampleImportResult> {
  const manifest = readSampleManifest(sampleDir);
  const id = manifest.video_id;
  const target = safeJoin(dataDir, 'videos', id);
  const result: SampleImportResult = { video_id: id, deleted: false, assigned_to: null, copied: false, inserted: false, questions: null };
  if (db.firstSync('SELECT 1 FROM deleted_videos WHERE id = ?', [id])) {
    result.deleted = true;
    return result;
  }

  removeStaleTemps(path.dirname(target), id);
  if (missingFiles(target, manifest).length > 0) {
    copyMedia(safeJoin(sampleDir, 'media'), target, manifest);
    result.copied = true;
  }

  if (!db.firstSync('SELECT 1 FROM videos WHERE id = ?', [id])) {
    const payload: unknown = JSON.parse(fs.readFileSync(path.join(sampleDir, 'questions.json'), 'utf8'));
    await db.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO videos (id, title, duration_seconds, video_file, thumbnail_file, subtitle_file, info_file,
                             frame_count, state, is_sample)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'downloaded', 1)`,
        [
          id,
          manifest.title,
          manifest.duration_seconds,
          manifest.files.video,
          manifest.files.thumbnail,
          manifest.files.subtitles,
          manifest.files.info,
          manifest.frame_count,
        ],
      );
      result.questions = await importReviewedQuestions(tx, id, payload);
      if (assignTo && (await tx.first('SELECT 1 FROM experts WHERE id = ?', [assignTo]))) {
        await tx.run('INSERT INTO video_assignments (video_id, expert_id) VALUES (?, ?) ON CONFLICT DO NOTHING', [id, assignTo]);
        result.assigned_to = assignTo;
      }
    });
    result.inserted = true;
    // the JSON export (question_file in the admin list) is a copy of the database: written after commit
    if (result.questions) result.questions.file_path = (await writeQuestionExport(db, dataDir, id)).file_path;
  }
  return result;
}

/** Files of the manifest that are absent from the sample's folder in the data dir. */
export function missingFiles(target: string, manifest: SampleManifest): string[] {
  return Object.keys(manifest.checksums).filter((rel) => !fs.existsSync(safeJoin(target, rel)));
}

/**
 * Copies every sample file into a temp folder beside the target (checking each against the
 * manifest), carries over what others wrote into the target (the questions export), then swaps
 * the folders with renames: a reader never sees half a sample.
 */
function copyMedia(source: string, target: string, manifest: SampleManifest): void {
  const parent = path.dirname(target);
  fs.mkdirSync(parent, { recursive: true });
  const id = path.basename(target);
  const tmp = fs.mkdtempSync(path.join(parent, `.${id}.import-`));
  let old: string | null = null;
  try {
    for (const [rel, sum] of Object.entries(manifest.checksums)) {
      const data = fs.readFileSync(safeJoin(source, rel));
      const sha = crypto.createHash('sha256').update(data).digest('hex');
      if (data.length !== sum.bytes || sha !== sum.sha256) {
        throw new Error(`sample file ${rel} does not match sample/manifest.json: rebuild with node scripts/make-sample.mjs`);
      }
      const dest = safeJoin(tmp, rel);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.writeFileSync(dest, data);
    }
    if (fs.existsSync(target)) {
      for (const name of fs.readdirSync(target)) {
        const kept = path.join(tmp, name);
        if (!fs.existsSync(kept)) fs.cpSync(path.join(target, name), kept, { recursive: true });
      }
      old = `${tmp}.old`;
      fs.renameSync(target, old);
    }
    fs.renameSync(tmp, target);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (old) fs.rmSync(old, { recursive: true, force: true });
  }
}

/** Leftovers of an import that was killed half-way (never the live folder). */
function removeStaleTemps(videosDir: string, id: string): void {
  if (!fs.existsSync(videosDir)) return;
  for (const name of fs.readdirSync(videosDir)) {
    if (name.startsWith(`.${id}.import-`)) fs.rmSync(path.join(videosDir, name), { recursive: true, force: true });
  }
}
