import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import multer from 'multer';
import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { AppError, badRequest } from '../http/errors.js';
import { parseInput } from '../http/validate.js';

/** What MediaRecorder and phones send: webm/ogg opus, mp4/m4a aac, wav, mp3, flac, 3gp. */
export const AUDIO_EXTENSIONS = new Set(['.webm', '.weba', '.ogg', '.oga', '.opus', '.wav', '.mp3', '.mpga', '.mpeg', '.m4a', '.mp4', '.aac', '.flac', '.3gp', '.caf']);
const AUDIO_MIME = /^audio\/[a-z0-9.+-]+$/i;
/** some browsers label an audio-only recording with its container's video type */
const CONTAINER_MIME = new Set(['video/webm', 'video/mp4', 'video/ogg', 'video/3gpp', 'application/ogg']);

export function isAcceptedAudio(mimeType: string, originalName: string): boolean {
  const mime = mimeType.split(';')[0]!.trim().toLowerCase();
  const ext = path.extname(originalName).toLowerCase();
  if (AUDIO_MIME.test(mime) || CONTAINER_MIME.has(mime)) return true;
  // a generic type is accepted only with an audio file name
  return (mime === 'application/octet-stream' || mime === '') && AUDIO_EXTENSIONS.has(ext);
}

/**
 * The multipart parser of /api/transcribe: one `file` up to `maxBytes`, written under `dir`
 * with a random name (never the client's), plus a few short text fields. The uploaded file is
 * removed when the response ends, whatever happened (success, validation error, failure,
 * client gone): recordings of children are never kept.
 */
export function audioUpload(dir: string, maxBytes: number, fields?: z.ZodType): RequestHandler[] {
  const upload = multer({
    storage: multer.diskStorage({
      destination: (_req, _file, cb) => {
        fs.mkdir(dir, { recursive: true, mode: 0o700 }, (err) => cb(err ?? null, dir));
      },
      filename: (_req, _file, cb) => cb(null, `rec-${crypto.randomBytes(12).toString('hex')}`),
    }),
    limits: { fileSize: maxBytes, files: 1, fields: 8, fieldSize: 1024, parts: 10 },
    fileFilter: (_req, file, cb) => {
      if (isAcceptedAudio(file.mimetype, file.originalname)) cb(null, true);
      else cb(new AppError(415, 'unsupported_audio_type', `"${file.mimetype}" is not an audio recording. Send webm, ogg, wav, mp3 or m4a audio.`));
    },
  });
  const single = upload.single('file');

  const cleanupOnEnd: RequestHandler = (req, res, next) => {
    const remove = () => {
      const f = req.file?.path;
      if (f) fs.rmSync(f, { force: true });
    };
    res.on('finish', remove);
    res.on('close', remove);
    next();
  };
  const parse: RequestHandler = (req, res, next) => {
    single(req, res, (err: unknown) => {
      if (err) {
        // multer removes a partial file itself; this covers a finished one rejected later
        if (req.file?.path) fs.rm(req.file.path, { force: true }, () => undefined);
        next(err);
        return;
      }
      if (!req.file) {
        next(badRequest('No audio was sent: attach the recording as the multipart field "file".', undefined, 'no_file'));
        return;
      }
      try {
        // the route validates these fields again; checking here lets the file go before the 400 is sent
        if (fields) parseInput({ body: fields }, req);
      } catch (e) {
        fs.rmSync(req.file.path, { force: true });
        next(e);
        return;
      }
      next();
    });
  };
  return [cleanupOnEnd, parse];
}
