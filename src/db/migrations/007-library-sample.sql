-- Videos an admin deleted. The bundled sample is re-imported on start only when its row is
-- missing; a row here means "deleted on purpose", so the import leaves it deleted.
CREATE TABLE deleted_videos (
  id          TEXT PRIMARY KEY,
  title       TEXT NOT NULL DEFAULT '',
  is_sample   INTEGER NOT NULL DEFAULT 0,
  deleted_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- The sample is now a library video like any other (seen through an assignment or a claim, no
-- longer by everyone). Installs that already have it keep the demo family's experience: it is
-- assigned to the demo expert when both exist.
INSERT INTO video_assignments (video_id, expert_id)
  SELECT v.id, e.id FROM videos v JOIN experts e ON e.id = 'demo'
   WHERE v.is_sample = 1
  ON CONFLICT DO NOTHING;
