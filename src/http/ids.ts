import path from 'node:path';
import { z } from 'zod';
import { badRequest } from './errors.js';

/**
 * Strict patterns for every id that can reach a file path or a query. Video ids are the
 * platform's 11-character ids, ids yt-dlp gives other allowed hosts, or the bundled sample's
 * id: letters, digits, '_' and '-', starting with a letter or digit, never '.', '/' or '\'.
 */
export const VIDEO_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const CHILD_ID_RE = /^\d{6}$/;
export const EXPERT_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{1,47}$/;
export const PARENT_ID_RE = /^p_[a-z0-9]{10}$/;

export const videoIdSchema = z.string().regex(VIDEO_ID_RE, 'is not a valid video id');
export const childIdSchema = z.string().regex(CHILD_ID_RE, 'must be a 6-digit child id');
export const expertIdSchema = z
  .string()
  .regex(EXPERT_ID_RE, 'must be 2 to 48 letters, digits, ".", "_" or "-", starting with a letter or digit');
export const parentIdSchema = z.string().regex(PARENT_ID_RE, 'is not a valid parent id');

/**
 * Joins parts under root and refuses any result outside it (defence in depth behind the
 * id patterns above).
 */
export function safeJoin(root: string, ...parts: string[]): string {
  const base = path.resolve(root);
  const full = path.resolve(base, ...parts);
  if (full !== base && !full.startsWith(base + path.sep)) throw badRequest('Invalid path.', undefined, 'invalid_path');
  return full;
}
