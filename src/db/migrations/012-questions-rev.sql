-- A revision of what children are served per video (the served-questions cache, issue #16):
-- every insert, update or delete of a row that can change servedQuestions (final.repository.ts)
-- adds 1 to its video's questions_rev IN THE SAME TRANSACTION as the change, so an instance that
-- reads an unchanged revision knows its cached copy is still exact. Triggers, not application
-- code, so no write path (review edits, import, regenerate, finalize, picks, deletes, a move of
-- engines) can forget it. An update that moves a row to another video bumps both videos.
-- Variants have no video_id: they reach it through their question. When a question is deleted,
-- its variants go by cascade after it (their lookup then finds no question and bumps nothing),
-- but the question's own delete has bumped the video already. PostgreSQL: 012-questions-rev.pg.sql.
ALTER TABLE videos ADD COLUMN questions_rev INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER review_segments_rev_insert AFTER INSERT ON review_segments
BEGIN UPDATE videos SET questions_rev = questions_rev + 1 WHERE id = NEW.video_id; END;
CREATE TRIGGER review_segments_rev_update AFTER UPDATE ON review_segments
BEGIN UPDATE videos SET questions_rev = questions_rev + 1 WHERE id IN (OLD.video_id, NEW.video_id); END;
CREATE TRIGGER review_segments_rev_delete AFTER DELETE ON review_segments
BEGIN UPDATE videos SET questions_rev = questions_rev + 1 WHERE id = OLD.video_id; END;

CREATE TRIGGER review_questions_rev_insert AFTER INSERT ON review_questions
BEGIN UPDATE videos SET questions_rev = questions_rev + 1 WHERE id = NEW.video_id; END;
CREATE TRIGGER review_questions_rev_update AFTER UPDATE ON review_questions
BEGIN UPDATE videos SET questions_rev = questions_rev + 1 WHERE id IN (OLD.video_id, NEW.video_id); END;
CREATE TRIGGER review_questions_rev_delete AFTER DELETE ON review_questions
BEGIN UPDATE videos SET questions_rev = questions_rev + 1 WHERE id = OLD.video_id; END;

CREATE TRIGGER persona_variants_rev_insert AFTER INSERT ON persona_variants
BEGIN UPDATE videos SET questions_rev = questions_rev + 1
       WHERE id IN (SELECT video_id FROM review_questions WHERE id = NEW.question_id); END;
CREATE TRIGGER persona_variants_rev_update AFTER UPDATE ON persona_variants
BEGIN UPDATE videos SET questions_rev = questions_rev + 1
       WHERE id IN (SELECT video_id FROM review_questions WHERE id IN (OLD.question_id, NEW.question_id)); END;
CREATE TRIGGER persona_variants_rev_delete AFTER DELETE ON persona_variants
BEGIN UPDATE videos SET questions_rev = questions_rev + 1
       WHERE id IN (SELECT video_id FROM review_questions WHERE id = OLD.question_id); END;

CREATE TRIGGER persona_winners_rev_insert AFTER INSERT ON persona_winners
BEGIN UPDATE videos SET questions_rev = questions_rev + 1 WHERE id = NEW.video_id; END;
CREATE TRIGGER persona_winners_rev_update AFTER UPDATE ON persona_winners
BEGIN UPDATE videos SET questions_rev = questions_rev + 1 WHERE id IN (OLD.video_id, NEW.video_id); END;
CREATE TRIGGER persona_winners_rev_delete AFTER DELETE ON persona_winners
BEGIN UPDATE videos SET questions_rev = questions_rev + 1 WHERE id = OLD.video_id; END;
