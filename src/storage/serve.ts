import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { contentTypeOf, RangeNotSatisfiable, type ByteRange, type MediaStore } from './media-store.js';

/**
 * Streams an object of a store that has no local file (the bucket) through the app, the way
 * res.sendFile serves a local one: Range (one range → 206 + Content-Range, past the end → 416,
 * several or malformed → the whole object, as `send` does), Accept-Ranges, ETag / Last-Modified
 * with 304 for a fresh conditional request, If-Range, HEAD without a body. Returns false when the
 * object does not exist (the caller answers 404), true once answered. Access is checked by the
 * caller before this runs, exactly as for local files: no presigned URL ever leaves the app.
 */
export async function streamFromStore(req: Request, res: Response, store: MediaStore, key: string, cacheControl: string): Promise<boolean> {
  const st = await store.stat(key);
  if (!st) return false;
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Content-Type', contentTypeOf(key));
  res.setHeader('Cache-Control', cacheControl);
  if (st.etag) res.setHeader('ETag', st.etag);
  if (st.lastModified) res.setHeader('Last-Modified', st.lastModified.toUTCString());
  if (req.fresh) {
    res.status(304).end();
    return true;
  }

  let range: ByteRange | undefined;
  const ranges = req.headers.range && ifRangeHolds(req, st.etag, st.lastModified) ? req.range(st.size, { combine: true }) : undefined;
  if (ranges === -1) return unsatisfiable(res, st.size);
  if (Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1) range = { start: ranges[0]!.start, end: ranges[0]!.end };

  if (req.method === 'HEAD') {
    if (range) res.status(206).setHeader('Content-Range', `bytes ${range.start}-${range.end}/${st.size}`);
    res.setHeader('Content-Length', range ? range.end - range.start + 1 : st.size);
    res.end();
    return true;
  }
  let read;
  try {
    read = await store.read(key, range);
  } catch (err) {
    if (err instanceof RangeNotSatisfiable) return unsatisfiable(res, err.size);
    throw err;
  }
  if (!read) return false; // deleted between the two calls
  if (read.range) {
    res.status(206).setHeader('Content-Range', `bytes ${read.range.start}-${read.range.end}/${read.size}`);
    res.setHeader('Content-Length', read.range.end - read.range.start + 1);
  } else {
    res.setHeader('Content-Length', read.size);
  }
  try {
    await pipeline(read.body, res);
  } catch (err) {
    // a player that seeks closes the connection mid-stream: that is not an error of ours
    if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw err;
  }
  return true;
}

function unsatisfiable(res: Response, size: number): true {
  res.status(416).setHeader('Content-Range', `bytes */${size}`);
  res.end();
  return true;
}

/** If-Range: the range applies only while the object is the one the client has (else the whole object). */
function ifRangeHolds(req: Request, etag: string | undefined, lastModified: Date | undefined): boolean {
  const ifRange = req.get('If-Range');
  if (!ifRange) return true;
  if (ifRange.includes('"')) return !!etag && ifRange === etag;
  const since = Date.parse(ifRange);
  return !!lastModified && !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000);
}
