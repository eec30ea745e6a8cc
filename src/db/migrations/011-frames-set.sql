-- Frames are swapped atomically for readers (issue #18): each extraction writes its frames and
-- manifests under a new folder `videos/<id>/<frames_set>/` of the media store (DATA_DIR or the
-- bucket), then points the video at it by setting frames_set with frame_count in one UPDATE, then
-- deletes the older sets. NULL means the folder `frames` (media written before this migration,
-- the bundled sample). Same text on both engines.
ALTER TABLE videos ADD COLUMN frames_set TEXT;
