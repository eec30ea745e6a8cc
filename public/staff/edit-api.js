// Every call the edit page makes, in one place (payloads: src/questions/review.schema.ts).
import { api, listFrom } from './lib.js';

const enc = encodeURIComponent;

/** The review set: [{ start, end, finalized, questions, variants, note }] in time order. */
export async function loadReview(videoId) {
  return fromState(await api('GET', `/api/expert-questions/${enc(videoId)}`));
}

/** Segments of a review-state answer (GET /api/expert-questions and the routes that echo it). */
export function fromState(data) {
  const notes = listFrom(data, 'annotations');
  return listFrom(data, 'segments')
    .map((s) => {
      const start = s.segment_range_start;
      const end = s.segment_range_end;
      const note = notes.find((a) => a.segment_range_start === start && a.segment_range_end === end && a.question_id === null);
      const questions = listFrom(s, 'questions');
      return {
        start,
        end,
        finalized: Boolean(s.finalized),
        questions,
        variants: questions.flatMap((q) => listFrom(q, 'variants')),
        note: note?.note ?? '',
      };
    })
    .sort((a, b) => a.start - b.start);
}

const range = (seg) => ({ segment_range_start: seg.start, segment_range_end: seg.end });

/** The AI the expert picked for new versions on this page ('' = the server's default). */
let provider = '';
export function setProvider(name) {
  provider = name;
}
const withProvider = (body) => (provider ? { ...body, provider } : body);

/** Saves a segment's whole question set (order, wording, trash); returns the stored segment. */
export async function saveSegment(videoId, seg, questions) {
  const r = await api('POST', '/api/expert-questions', { video_id: videoId, segments: [{ ...range(seg), questions: questions.map(toInput) }] });
  return fromState(r).find((s) => s.start === seg.start && s.end === seg.end) ?? null;
}

/** Finalizes (or reopens) segments as they stand: children are served finalized segments only. */
export async function finalizeSegments(videoId, segs, finalized = true) {
  return api('POST', '/api/save-final-questions', { video_id: videoId, segments: segs.map((s) => ({ ...range(s), finalized })) });
}

/** The caller's note on a segment (or on one question); an empty note deletes it. */
export async function annotate(videoId, seg, note, questionId) {
  /** @type {{ note: string, segment_range_start: number, segment_range_end: number, question_id?: number }} */
  const a = { ...range(seg), note };
  if (questionId) a.question_id = questionId;
  return api('POST', '/api/expert-annotations', { video_id: videoId, annotations: [a] });
}

/** Asks the AI for a new version of one question (stored in its place); returns it. */
export async function regenerate(videoId, q, instructions) {
  const body = { question_id: q.id };
  if (instructions) body.instructions = instructions;
  const r = await api('POST', `/api/expert/video/${enc(videoId)}/regenerate-question`, withProvider(body));
  return r.question;
}

/** Writes the three companions' wordings of one question with the AI; returns { created, errors }. */
export async function makeVariants(videoId, q) {
  return api('POST', `/api/expert/video/${enc(videoId)}/persona-variants`, withProvider({ question_ids: [q.id] }));
}

/** The expert's own wording for a companion, picked at once. */
export async function writeVariant(videoId, q, companion, question) {
  return api('POST', `/api/expert/video/${enc(videoId)}/persona-variants`, { custom: [{ question_id: q.id, companion, question, chosen: true }] });
}

/** The variant children with this companion hear for the segment (null: no pick). */
export async function chooseVariant(videoId, seg, companion, variantId) {
  return api('POST', `/api/expert/video/${enc(videoId)}/persona-variants`, { choices: [{ ...range(seg), companion, variant_id: variantId }] });
}

function toInput(q) {
  const out = {
    question_type: q.question_type,
    question: q.question,
    answer: q.answer,
    llm_ranking: q.llm_ranking ?? null,
    expert_ranking: q.expert_ranking ?? null,
    trashed: Boolean(q.trashed),
  };
  if (q.id) out.id = q.id;
  return out;
}
