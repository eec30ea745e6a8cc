-- See 012-questions-rev.sql (what the revision is for and which changes move it). The same column
-- (INTEGER, as on SQLite: a counter of edits, not epoch milliseconds) and one plpgsql function
-- run AFTER each row change of the four tables. Under READ COMMITTED two transactions bumping the
-- same video queue on its row lock and the second adds 1 to the first's committed value, so the
-- revision never goes back and never repeats while the video row lives.
ALTER TABLE videos ADD COLUMN questions_rev INTEGER NOT NULL DEFAULT 0;

CREATE FUNCTION questions_rev_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids TEXT[] := '{}';
BEGIN
  IF TG_TABLE_NAME = 'persona_variants' THEN
    -- no video_id of its own: the question's (none when the question was deleted first, by cascade)
    IF TG_OP <> 'INSERT' THEN
      ids := ids || ARRAY(SELECT video_id FROM review_questions WHERE id = OLD.question_id);
    END IF;
    IF TG_OP <> 'DELETE' THEN
      ids := ids || ARRAY(SELECT video_id FROM review_questions WHERE id = NEW.question_id);
    END IF;
  ELSE
    IF TG_OP <> 'INSERT' THEN ids := ids || OLD.video_id; END IF;
    IF TG_OP <> 'DELETE' THEN ids := ids || NEW.video_id; END IF;
  END IF;
  UPDATE videos SET questions_rev = questions_rev + 1 WHERE id = ANY (ids);
  RETURN NULL;
END;
$$;

CREATE TRIGGER review_segments_rev AFTER INSERT OR UPDATE OR DELETE ON review_segments
  FOR EACH ROW EXECUTE FUNCTION questions_rev_bump();
CREATE TRIGGER review_questions_rev AFTER INSERT OR UPDATE OR DELETE ON review_questions
  FOR EACH ROW EXECUTE FUNCTION questions_rev_bump();
CREATE TRIGGER persona_variants_rev AFTER INSERT OR UPDATE OR DELETE ON persona_variants
  FOR EACH ROW EXECUTE FUNCTION questions_rev_bump();
CREATE TRIGGER persona_winners_rev AFTER INSERT OR UPDATE OR DELETE ON persona_winners
  FOR EACH ROW EXECUTE FUNCTION questions_rev_bump();
