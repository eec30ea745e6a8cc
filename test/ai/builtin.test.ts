import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BuiltinProvider, templateVariant } from '../../src/ai/builtin.provider.js';
import { generatedQuestionListSchema, QUESTION_TYPES } from '../../src/questions/questions.schema.js';
import { parseVtt } from '../../src/pipeline/subtitles.js';
import { revealsAnswer } from '../../src/ai/replies.js';
import type { SubtitleLine } from '../../src/ai/types.js';

/** The bundled sample's subtitles (the VTT shipped in sample/media). */
function sampleLines(): SubtitleLine[] {
  const dir = path.resolve('sample/media');
  const vtt = fs.readdirSync(dir).find((f) => f.endsWith('.vtt'))!;
  return parseVtt(fs.readFileSync(path.join(dir, vtt), 'utf8')).map((c) => ({ time: c.start, text: c.text }));
}

const p = new BuiltinProvider();
const gen = (lines: SubtitleLine[], start: number, end: number) =>
  p.generateSegment({
    videoId: 'sample', start, end, frames: [],
    subtitles: lines.filter((l) => l.time >= start && l.time < end),
    after: lines.filter((l) => l.time >= end).slice(0, 3),
  });

describe('builtin provider', () => {
  it("gives valid, non-trivial questions for every segment of the bundled sample's subtitles", async () => {
    const lines = sampleLines();
    expect(lines.length).toBeGreaterThan(5);
    const all = [];
    for (const [start, end] of [[0, 12], [12, 25], [25, 37], [37, 51]] as const) {
      const qs = await gen(lines, start, end);
      expect(() => generatedQuestionListSchema.parse(qs)).not.toThrow();
      expect(qs.length).toBeGreaterThanOrEqual(3);
      expect(qs.map((q) => q.llm_ranking)).toEqual(qs.map((_, i) => i + 1));
      for (const q of qs) {
        expect(q.question).toMatch(/^[A-Z].*\?$/);
        expect(q.question.split(' ').length).toBeLessThanOrEqual(16);
        expect(q.answer.split(' ').length).toBeLessThanOrEqual(8);
        expect(q.question.toLowerCase()).not.toContain(q.answer.toLowerCase());
      }
      all.push(...qs);
    }
    // across the sample every type is asked at least once
    expect(new Set(all.map((q) => q.question_type))).toEqual(new Set(QUESTION_TYPES));
  });

  it('asks what the narration says', async () => {
    const lines = sampleLines();
    const first = await gen(lines, 0, 12);
    expect(first).toContainEqual(expect.objectContaining({ question_type: 'setting', question: 'Where does Penny live?', answer: 'on a sunny farm' }));
    expect(first).toContainEqual(expect.objectContaining({ question_type: 'character', question: 'Who is the little pig?', answer: 'Penny' }));
    expect(first).toContainEqual(expect.objectContaining({ question_type: 'action', question: 'What does Penny love to do?', answer: 'play with her red ball' }));
    const second = await gen(lines, 12, 25);
    expect(second).toContainEqual(expect.objectContaining({ question_type: 'feeling', question: 'How did Penny feel?', answer: 'sad' }));
    expect(second).toContainEqual(expect.objectContaining({ question_type: 'causal', question: 'Why did Penny feel sad?' }));
    expect(second).toContainEqual(expect.objectContaining({ question_type: 'outcome', question: 'What did Penny do after the wind blew the ball away?', answer: 'looked and looked' }));
    const third = await gen(lines, 25, 37);
    expect(third).toContainEqual(expect.objectContaining({ question_type: 'prediction', question: 'What do you think they will do next?', answer: 'go down to the pond' }));
  });

  it('handles "because" and "so" sentences', async () => {
    const lines = [
      { time: 1, text: 'Tom is happy because his dog came home.' },
      { time: 4, text: 'It started to rain, so Tom ran inside the house.' },
    ];
    const qs = await gen(lines, 0, 10);
    expect(qs).toContainEqual(expect.objectContaining({ question_type: 'causal', question: 'Why is Tom happy?', answer: 'his dog came home' }));
    expect(qs).toContainEqual(expect.objectContaining({ question_type: 'outcome', question: 'What happened when it started to rain?', answer: 'Tom ran inside the house' }));
    expect(qs).toContainEqual(expect.objectContaining({ question_type: 'feeling', answer: 'happy' }));
  });

  it('refuses a segment without speech with a structured no_input error', async () => {
    await expect(gen([], 0, 10)).rejects.toMatchObject({ code: 'no_input', retryable: false, provider: 'builtin' });
    await expect(gen([{ time: 1, text: 'La la la.' }], 0, 10)).rejects.toMatchObject({ code: 'no_input' });
  });

  it('regenerates a different question of the asked type, or says it has none', async () => {
    const lines = sampleLines();
    const segment = { videoId: 's', start: 25, end: 37, frames: [], subtitles: lines.filter((l) => l.time >= 25 && l.time < 37) };
    const first = await p.regenerateQuestion({ segment, questionType: 'character', avoid: [] });
    const second = await p.regenerateQuestion({ segment, questionType: 'character', avoid: [first.question] });
    expect(second.question).not.toBe(first.question);
    await expect(p.regenerateQuestion({ segment, questionType: 'character', avoid: [first.question, second.question] })).rejects.toMatchObject({ code: 'no_input' });
  });

  it('rewords in each companion voice without changing or revealing the answer', async () => {
    const v = await p.writeVariants({ questionType: 'feeling', question: 'How did Penny feel?', answer: 'sad', companions: ['bunny', 'pig', 'alligator'] });
    expect(v.bunny).toMatch(/^(Hop hop|My ears).*How did Penny feel\? Can you tell me\?$/);
    expect(v.pig).toMatch(/^(Oink|Snort).*How did Penny feel\?/);
    expect(v.alligator).toMatch(/^(Snap snap|Hey there).*How did Penny feel\?/);
    for (const text of Object.values(v)) expect(revealsAnswer(text!, { question: 'How did Penny feel?', answer: 'sad' })).toBe(false);
    expect(templateVariant('pig', 'Who?')).toBe(templateVariant('pig', 'Who?'));
  });
});
