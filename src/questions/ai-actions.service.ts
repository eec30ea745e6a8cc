import type { z } from 'zod';
import type { Companion } from '../config.js';
import type { Database } from '../db/database.js';
import { AppError, badRequest } from '../http/errors.js';
import { ProviderError, classifyError } from '../ai/errors.js';
import type { QuestionProvider } from '../ai/types.js';
import type { GenerationDeps } from './generation.service.js';
import { pool } from './generation.service.js';
import { COMPANIONS } from './questions.schema.js';
import type { regenerateBody, variantPreviewBody, variantsBody } from './review.schema.js';
import { getReviewQuestion, insertQuestion, listReviewQuestions, markSegmentEdited, reviewSegmentExists, setRegenerated } from './review.repository.js';
import { chooseVariant, clearChoice, deleteVariantsOf, insertVariant, listVariants, variantCompanion } from './variants.repository.js';
import { assertSegmentFits } from './review.service.js';
import { buildSegmentInput, loadVideoSource } from './segment-input.js';
import { mediaStore } from '../storage/index.js';
import { topQuestions } from './final.service.js';

/** Provider failures as HTTP errors: a missing setting is the caller's problem, the rest is upstream. */
export function providerHttpError(err: unknown): AppError {
  const e = err instanceof ProviderError ? err : classifyError('unknown', err);
  if (e.code === 'not_configured') return new AppError(400, 'provider_not_configured', e.message);
  if (e.code === 'no_input') return new AppError(422, 'nothing_to_ask', e.message);
  return new AppError(502, `provider_${e.code}`, e.message, { retryable: e.retryable, provider: e.provider });
}

function provider(deps: GenerationDeps, name?: QuestionProvider['name']): QuestionProvider {
  try {
    return deps.providers.get(name);
  } catch (err) {
    throw providerHttpError(err);
  }
}

type RegenerateBody = z.infer<typeof regenerateBody>;

/** A new question for one question (replacing it) or for a segment and type (added to it). */
export async function regenerateQuestion(deps: GenerationDeps, videoId: string, body: RegenerateBody, by: string, signal: AbortSignal) {
  const { db } = deps;
  const current = body.question_id === undefined ? undefined : await getReviewQuestion(db, videoId, body.question_id);
  if (body.question_id !== undefined && !current) throw badRequest(`Question ${body.question_id} is not a question of this video.`, undefined, 'unknown_question');
  const seg = current
    ? { start: current.segment_range_start, end: current.segment_range_end }
    : { start: body.segment_range_start!, end: body.segment_range_end! };
  if (seg.end <= seg.start) throw badRequest('segment_range_end must be after segment_range_start.');
  const questionType = body.question_type ?? current!.question_type;
  const src = await loadVideoSource(db, mediaStore(deps.config), videoId);
  if (!src) throw new AppError(409, 'no_frames', 'This video has no frames yet: extract frames first.');
  const p = provider(deps, body.provider);
  const siblings = (await listReviewQuestions(db, videoId)).filter((q) => q.segment_range_start === seg.start && q.segment_range_end === seg.end);
  let fresh;
  try {
    const input = await buildSegmentInput(src, seg, { withFrames: p.name !== 'builtin', ffmpegPath: deps.config.FFMPEG_PATH, store: mediaStore(deps.config), signal });
    fresh = await p.regenerateQuestion(
      { segment: input, questionType, avoid: siblings.filter((q) => q.question_type === questionType).map((q) => q.question), instructions: body.instructions },
      { signal },
    );
  } catch (err) {
    throw providerHttpError(err);
  }
  if (!body.save) return { saved: false, provider: p.name, question: { ...fresh, segment_range_start: seg.start, segment_range_end: seg.end } };
  const saved = await db.transaction(async (tx) => {
    if (current) {
      // new wording and answer: the old companion variants no longer fit
      await deleteVariantsOf(tx, current.id);
      await setRegenerated(tx, current.id, fresh, p.name, by);
      await markSegmentEdited(tx, videoId, seg);
      return (await getReviewQuestion(tx, videoId, current.id))!;
    }
    await assertSegmentFits(tx, videoId, seg);
    const id = await insertQuestion(tx, videoId, seg, { ...fresh, llm_ranking: null, expert_ranking: null, trashed: false }, {
      origin: 'regenerated', provider: p.name, edited: true, by, position: siblings.length,
    });
    await markSegmentEdited(tx, videoId, seg);
    return (await getReviewQuestion(tx, videoId, id))!;
  });
  return { saved: true, provider: p.name, question: saved };
}

type VariantsBody = z.infer<typeof variantsBody>;

/**
 * Companion variants of a video's questions: the expert's own wordings (`custom`), picks
 * (`choices`), and AI rewordings (`question_ids`, by default the top question of every segment
 * when nothing else is asked). Provider failures for single questions are reported, not fatal.
 */
export async function updateVariants(deps: GenerationDeps, videoId: string, body: VariantsBody, by: string, signal: AbortSignal) {
  const { db } = deps;
  const questions = new Map((await listReviewQuestions(db, videoId)).map((q) => [q.id, q]));
  const own = (id: number) => {
    const q = questions.get(id);
    if (!q) throw badRequest(`Question ${id} is not a question of this video.`, undefined, 'unknown_question');
    return q;
  };
  const created: number[] = [];
  await db.transaction(async (tx) => {
    for (const c of body.custom ?? []) {
      const q = own(c.question_id);
      const id = await insertVariant(tx, q.id, c.companion, c.question, 'expert');
      created.push(id);
      if (c.chosen) await chooseVariant(tx, videoId, { start: q.segment_range_start, end: q.segment_range_end }, c.companion, id, by);
    }
    for (const ch of body.choices ?? []) await applyChoice(tx, videoId, ch, by);
  });

  const nothingElse = !body.custom?.length && !body.choices?.length;
  const ids = body.question_ids ?? (nothingElse ? (await topQuestions(db, videoId, false)).map((q) => q.id) : []);
  const targets = ids.map(own);
  const companions = body.companions ?? COMPANIONS;
  const errors: { question_id: number; error: { code: string; message: string; retryable: boolean } }[] = [];
  let providerName: string | null = null;
  if (targets.length) {
    const p = provider(deps, body.provider);
    providerName = p.name;
    await pool(
      targets.map((q) => async () => {
        try {
          const out = await p.writeVariants({ questionType: q.question_type, question: q.question, answer: q.answer, companions }, { signal });
          await db.transaction(async (tx) => {
            for (const c of companions) if (out[c]) created.push(await insertVariant(tx, q.id, c, out[c]!, p.name));
          });
        } catch (err) {
          const e = err instanceof ProviderError ? err : classifyError(p.name, err, signal);
          errors.push({ question_id: q.id, error: { code: e.code, message: e.message, retryable: e.retryable } });
        }
      }),
      deps.config.GENERATION_CONCURRENCY,
      signal,
    );
    if (errors.length === targets.length) throw providerHttpError(new ProviderError(errors[0]!.error.code as never, errors[0]!.error.message, p.name));
  }
  const all = await listVariants(db, videoId);
  return { provider: providerName, created: all.filter((v) => created.includes(v.id)), errors };
}

async function applyChoice(db: Database, videoId: string, ch: NonNullable<VariantsBody['choices']>[number], by: string): Promise<void> {
  const seg = { start: ch.segment_range_start, end: ch.segment_range_end };
  if (!(await reviewSegmentExists(db, videoId, seg))) {
    throw badRequest(`There is no segment ${seg.start}-${seg.end} s for this video.`, undefined, 'segment_not_found');
  }
  if (ch.variant_id === null) return clearChoice(db, videoId, seg, ch.companion);
  const companion = await variantCompanion(db, videoId, seg, ch.variant_id);
  if (!companion) throw badRequest(`Variant ${ch.variant_id} is not a variant of segment ${seg.start}-${seg.end} s.`, undefined, 'unknown_variant');
  if (companion !== ch.companion) throw badRequest(`Variant ${ch.variant_id} is the ${companion}'s, not the ${ch.companion}'s.`, undefined, 'wrong_companion');
  await chooseVariant(db, videoId, seg, ch.companion, ch.variant_id, by);
}

/** Rewords a list of questions for the companions without storing anything. */
export async function previewVariants(deps: GenerationDeps, body: z.infer<typeof variantPreviewBody>, signal: AbortSignal) {
  const p = provider(deps, body.provider);
  const companions = body.companions ?? COMPANIONS;
  const out: { question: string; answer: string; question_type: string; variants: Partial<Record<Companion, string>> }[] = [];
  try {
    for (const q of body.questions) {
      const variants = await p.writeVariants({ questionType: q.question_type, question: q.question, answer: q.answer, companions }, { signal });
      out.push({ ...q, variants });
    }
  } catch (err) {
    throw providerHttpError(err);
  }
  return { provider: p.name, questions: out };
}

