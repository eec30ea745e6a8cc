import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Database } from '../db/database.js';
import { ExpertsRepository } from '../accounts/experts.repository.js';
import { assign } from '../videos/assignments.repository.js';
import { getVideo, insertSampleVideo, isDeletedVideo, videoExists } from '../videos/videos.repository.js';
import { safeJoin } from '../http/ids.js';
import { importReviewedQuestions, type ImportSummary } from '../questions/import.js';
import { writeQuestionExport } from '../questions/export.js';
import { LocalMediaStore, type MediaStore } from '../storage/index.js';
import { assertKey } from '../storage/media-store.js';
import { videoPrefix } from '../storage/keys.js';
import { sampleManifestSchema, type SampleManifest } from './sample.schema.js';

/** The bundled sample in the repository: manifest.json, questions.json and media/. */
export const SAMPLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'sample');

export interface SampleImportResult {
  video_id: string;
  /** an admin deleted the sample (deleted_videos): nothing was imported or copied */
  deleted: boolean;
  /** the expert the new row was assigned to (the demo expert), or null */
  assigned_to: string | null;
  /** the media were (re)copied into the media store (dataDir/videos/<id>/ or the bucket) */
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
 * Makes sure the bundled sample is playable: copies its media into the media store under
 * `videos/<id>/` (DATA_DIR, or the bucket with S3_BUCKET) when any file is missing there, and, when the database has no row for it, inserts the row and
 * imports its reviewed questions in one transaction. The sample is a library video like any
 * other: the new row is assigned to `assignTo` (the demo expert, when there is one) and is
 * otherwise available for experts to claim. A sample an admin deleted (a deleted_videos row)
 * is left deleted. Everything already in place is left alone, so a second run changes nothing,
 * and an expert's later edits to the sample's questions and an admin's unassigning survive
 * restarts. No ffmpeg: the files are prebuilt.
 */
export async function importSample(
  db: Database,
  dataDir: string,
  sampleDir = SAMPLE_DIR,
  assignTo: string | null = null,
  store: MediaStore = new LocalMediaStore(dataDir),
): Promise<SampleImportResult> {
  const manifest = readSampleManifest(sampleDir);
  const id = manifest.video_id;
  const videos = safeJoin(dataDir, 'videos');
  const result: SampleImportResult = { video_id: id, deleted: false, assigned_to: null, copied: false, inserted: false, questions: null };
  if (await isDeletedVideo(db, id)) {
    result.deleted = true;
    return result;
  }

  removeStaleTemps(videos, id);
  // frames extracted again since (the row names a frame set): the bundled `frames/` is not theirs any more
  const framesMoved = ((await getVideo(db, id))?.framesSet ?? null) !== null;
  if ((await missingFiles(store, id, manifest, framesMoved)).length > 0) {
    await copyMedia(safeJoin(sampleDir, 'media'), store, videos, id, manifest, framesMoved);
    result.copied = true;
  }

  if (!(await videoExists(db, id))) {
    const payload: unknown = JSON.parse(fs.readFileSync(path.join(sampleDir, 'questions.json'), 'utf8'));
    await db.transaction(async (tx) => {
      await insertSampleVideo(tx, {
        id,
        title: manifest.title,
        durationSeconds: manifest.duration_seconds,
        videoFile: manifest.files.video,
        thumbnailFile: manifest.files.thumbnail,
        subtitleFile: manifest.files.subtitles,
        infoFile: manifest.files.info,
        frameCount: manifest.frame_count,
      });
      result.questions = await importReviewedQuestions(tx, id, payload);
      if (assignTo && (await new ExpertsRepository(tx).exists(assignTo))) {
        await assign(tx, id, assignTo);
        result.assigned_to = assignTo;
      }
    });
    result.inserted = true;
    // the JSON export (question_file in the admin list) is a copy of the database: written after commit
    if (result.questions) result.questions.file_path = (await writeQuestionExport(db, store, id)).file_path;
  }
  return result;
}

/** Files of the manifest that are absent from the sample's media in the store. */
export async function missingFiles(store: MediaStore, id: string, manifest: SampleManifest, framesMoved = false): Promise<string[]> {
  const missing: string[] = [];
  for (const rel of sampleFiles(manifest, framesMoved)) if (!(await store.exists(sampleKey(id, rel)))) missing.push(rel);
  return missing;
}

/** The manifest's files, without its `frames/` when the video's frames now live in another set. */
function sampleFiles(manifest: SampleManifest, framesMoved: boolean): string[] {
  return Object.keys(manifest.checksums).filter((rel) => !(framesMoved && rel.startsWith(`${manifest.files.frames_dir}/`)));
}

const sampleKey = (id: string, rel: string) => assertKey(`${videoPrefix(id)}${rel}`);

/**
 * Copies every sample file into a temp folder under `videos/` (checking each against the
 * manifest) before anything reaches the store, then puts them in file by file (each a rename on
 * disk, a whole object in a bucket), so a broken sample leaves nothing behind and what others
 * wrote beside the media (the questions export) stays.
 */
async function copyMedia(source: string, store: MediaStore, videosDir: string, id: string, manifest: SampleManifest, framesMoved: boolean): Promise<void> {
  fs.mkdirSync(videosDir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(videosDir, `.${id}.import-`));
  try {
    const files = sampleFiles(manifest, framesMoved);
    for (const rel of files) {
      const sum = manifest.checksums[rel]!;
      const data = fs.readFileSync(safeJoin(source, rel));
      const sha = crypto.createHash('sha256').update(data).digest('hex');
      if (data.length !== sum.bytes || sha !== sum.sha256) {
        throw new Error(`sample file ${rel} does not match sample/manifest.json: rebuild with node scripts/make-sample.mjs`);
      }
      const dest = safeJoin(tmp, rel);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.writeFileSync(dest, data);
    }
    for (const rel of files) await store.putFile(sampleKey(id, rel), safeJoin(tmp, rel), { move: true });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Leftovers of an import that was killed half-way (never the live folder). */
function removeStaleTemps(videosDir: string, id: string): void {
  if (!fs.existsSync(videosDir)) return;
  for (const name of fs.readdirSync(videosDir)) {
    if (name.startsWith(`.${id}.import-`)) fs.rmSync(path.join(videosDir, name), { recursive: true, force: true });
  }
}
