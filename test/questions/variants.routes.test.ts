import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type Agent, type TestApp, type TestFamily } from '../helpers/app.js';
import { FakeProvider } from '../fake-provider/server.js';
import { addVideo, assignVideo, count } from './fixtures.js';

let fake: FakeProvider;
let t: TestApp;
let admin: Agent;
let mine: Agent;
let other: Agent;
let famA: TestFamily;
let n = 0;

beforeAll(async () => {
  fake = await FakeProvider.start();
  t = await startTestApp({ ...fake.env(), QUESTION_PROVIDER: 'openai', AI_MAX_RETRIES: '0' });
  admin = await loginAdmin(t.agent());
  famA = await createFamily(t);
  const famB = await createFamily(t);
  mine = await loginExpert(t.agent(), famA.expert.code);
  other = await loginExpert(t.agent(), famB.expert.code);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => fake.reset());

/** A 30 s video with frames, assigned to expert A, with two generated segments. */
async function seededVideo(): Promise<{ id: string; top: number[] }> {
  const id = `vvid${n++}`;
  await addVideo(t.db, t.dataDir, { id, seconds: 30 });
  await assignVideo(t.db, id, famA.expert.expert_id);
  const res = await admin.post('/api/submit-questions').send({
    video_id: id,
    questions: [0, 15].map((s) => ({
      segment_range_start: s,
      segment_range_end: s + 15,
      questions: [
        { question_type: 'feeling', question: `How does Penny feel at ${s}?`, answer: 'sad', rank: 1 },
        { question_type: 'setting', question: `Where is Penny at ${s}?`, answer: 'on the farm', rank: 2 },
      ],
    })),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const top = (await t.db.all<{ id: number }>("SELECT id FROM review_questions WHERE video_id = ? AND question_type = 'feeling' ORDER BY start_seconds", [id])).map((r) => r.id);
  fake.reset();
  return { id, top };
}

describe('POST /api/expert/video/{video_id}/regenerate-question', () => {
  it('replaces a question with a new one from the provider (frames and subtitles sent)', async () => {
    const { id, top } = await seededVideo();
    const res = await mine.post(`/api/expert/video/${id}/regenerate-question`).send({ question_id: top[0], instructions: 'simpler words' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, saved: true, provider: 'openai', question: { id: top[0], question_type: 'feeling', question: 'A fresh feeling question?', answer: 'fresh answer', origin: 'regenerated' } });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.images).toBe(5);
    expect(fake.requests[0]!.text).toContain('The reviewer asks: simpler words');
    expect(fake.requests[0]!.text).toContain('- How does Penny feel at 0?');
    expect(await t.db.first('SELECT question, origin, provider, edited FROM review_questions WHERE id = ?', [top[0]])).toEqual({
      question: 'A fresh feeling question?', origin: 'regenerated', provider: 'openai', edited: 1,
    });
  });

  it('adds a question of a type to a segment with the builtin provider, or only returns it with save:false', async () => {
    const { id } = await seededVideo();
    const add = await mine.post(`/api/expert/video/${id}/regenerate-question`).send({ segment_range_start: 0, segment_range_end: 15, question_type: 'character', provider: 'builtin' });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    expect(add.body.question).toMatchObject({ question_type: 'character', question: 'Who is the little pig?', answer: 'Penny', provider: 'builtin' });
    const peek = await mine.post(`/api/expert/video/${id}/regenerate-question`).send({ segment_range_start: 0, segment_range_end: 15, question_type: 'action', save: false });
    expect(peek.body).toMatchObject({ saved: false, question: { question_type: 'action', question: 'A fresh action question?' } });
    expect(await count(t.db, 'SELECT COUNT(*) AS n FROM review_questions WHERE video_id = ? AND start_seconds = 0', [id])).toBe(3);
  });

  it('maps provider failures to 502 and bad input to 400; 403s another expert', async () => {
    const { id, top } = await seededVideo();
    fake.fallback = 'refusal';
    const refused = await mine.post(`/api/expert/video/${id}/regenerate-question`).send({ question_id: top[0] });
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ success: false, error: 'provider_refused' });
    for (const body of [{}, { question_id: 'x' }, { segment_range_start: 0, question_type: 'feeling' }, { question_id: 999999 }, { question_id: top[0], provider: 'skynet' }]) {
      expect((await mine.post(`/api/expert/video/${id}/regenerate-question`).send(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await other.post(`/api/expert/video/${id}/regenerate-question`).send({ question_id: top[0] })).status).toBe(403);
    expect(await t.db.first('SELECT origin FROM review_questions WHERE id = ?', [top[0]])).toEqual({ origin: 'generated' });
  });
});

describe('persona variants', () => {
  it('generates variants for the top questions, lets the expert pick, and serves the pick to the child', async () => {
    const { id, top } = await seededVideo();
    const gen = await mine.post(`/api/expert/video/${id}/persona-variants`).send({});
    expect(gen.status, JSON.stringify(gen.body)).toBe(200);
    expect(gen.body.created).toHaveLength(6);
    expect(gen.body.created[0]).toMatchObject({ question_id: top[0], answer: 'sad', provider: 'openai', chosen: false });
    expect(fake.requests).toHaveLength(2);

    const pigVariant = gen.body.created.find((v: { question_id: number; companion: string }) => v.question_id === top[0] && v.companion === 'pig');
    expect(pigVariant.question).toBe('Oink! How does Penny feel at 0?');
    const own = await mine.post(`/api/expert/video/${id}/persona-variants`).send({
      custom: [{ question_id: top[0], companion: 'bunny', question: 'Hop! How is Penny feeling, friend?', chosen: true }],
      choices: [{ segment_range_start: 0, segment_range_end: 15, companion: 'pig', variant_id: pigVariant.id }],
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(fake.requests).toHaveLength(2); // nothing generated when only custom/choices are sent
    expect(own.body.segments[0].chosen).toEqual({ bunny: expect.any(Number), pig: pigVariant.id, alligator: null });

    const list = await mine.get(`/api/expert/video/${id}/persona-variants`);
    expect(list.body.companions.pig.personality).toMatch(/playful/);
    expect(list.body.segments[0].questions[0].variants).toHaveLength(4);

    await mine.post('/api/save-final-questions').send({ video_id: id, segments: [{ segment_range_start: 0, segment_range_end: 15 }] });
    const child = await loginChild(t.agent(), famA);
    const pig = await child.get(`/api/final-questions/${id}?companion=pig`);
    expect(pig.body.segments).toEqual([expect.objectContaining({ question: 'Oink! How does Penny feel at 0?', answer: 'sad', companion: 'pig', question_type: 'feeling' })]);
    expect((await child.get(`/api/final-questions/${id}?companion=bunny`)).body.segments[0].question).toBe('Hop! How is Penny feeling, friend?');
    expect((await child.get(`/api/final-questions/${id}?companion=alligator`)).body.segments[0].question).toBe('Snap snap! How does Penny feel at 0?');
    expect((await child.get(`/api/final-questions/${id}`)).body.segments[0].question).toBe('How does Penny feel at 0?');

    // changing the answer drops the variants that were written for the old one
    await mine.post(`/api/expert/video/${id}/update-questions`).send({ questions: [{ id: top[0], answer: 'very sad' }] });
    expect(await count(t.db, 'SELECT COUNT(*) AS n FROM persona_variants WHERE question_id = ?', [top[0]])).toBe(0);
    expect((await child.get(`/api/final-questions/${id}?companion=pig`)).body.segments[0]).toMatchObject({ question: 'How does Penny feel at 0?', companion: null });
  });

  it('400s bad picks and payloads, 502s when the provider fails for every question, 403s another expert', async () => {
    const { id, top } = await seededVideo();
    const gen = await mine.post(`/api/expert/video/${id}/persona-variants`).send({ question_ids: [top[1]], companions: ['pig'] });
    const pig = gen.body.created[0];
    expect(gen.body.created).toHaveLength(1);
    const bad = [
      { companions: ['dragon'] },
      { question_ids: [999999] },
      { choices: [{ segment_range_start: 0, segment_range_end: 15, companion: 'pig', variant_id: pig.id }] }, // variant of another segment
      { choices: [{ segment_range_start: 15, segment_range_end: 30, companion: 'bunny', variant_id: pig.id }] }, // another companion's variant
      { custom: [{ question_id: top[0], companion: 'pig', question: '' }] },
    ];
    for (const body of bad) expect((await mine.post(`/api/expert/video/${id}/persona-variants`).send(body)).status, JSON.stringify(body)).toBe(400);
    fake.fallback = 'invalid_json';
    const failed = await mine.post(`/api/expert/video/${id}/persona-variants`).send({ question_ids: [top[0]] });
    expect(failed.status).toBe(502);
    expect(failed.body.error).toBe('provider_invalid_reply');
    expect((await other.post(`/api/expert/video/${id}/persona-variants`).send({})).status).toBe(403);
    expect((await other.get(`/api/expert/video/${id}/persona-variants`)).status).toBe(403);
    expect(await count(t.db, 'SELECT COUNT(*) AS n FROM persona_winners WHERE video_id = ?', [id])).toBe(0);
  });

  it('rewords a free question list without storing anything', async () => {
    const before = await count(t.db, 'SELECT COUNT(*) AS n FROM persona_variants');
    const res = await mine.post('/api/expert/questions/persona-variants').send({ questions: [{ question: 'Who is hiding?', answer: 'the cat' }], companions: ['alligator'], provider: 'anthropic' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ provider: 'anthropic', questions: [{ question: 'Who is hiding?', answer: 'the cat', variants: { alligator: 'Snap snap! Who is hiding?' } }] });
    const offline = await admin.post('/api/expert/questions/persona-variants').send({ questions: [{ question: 'Who is hiding?', answer: 'the cat' }], provider: 'builtin' });
    expect(Object.keys(offline.body.questions[0].variants)).toEqual(['bunny', 'pig', 'alligator']);
    expect(offline.body.questions[0].variants.pig).toMatch(/Who is hiding\?/);
    expect((await mine.post('/api/expert/questions/persona-variants').send({ questions: [] })).status).toBe(400);
    expect((await mine.post('/api/expert/questions/persona-variants').send({ questions: [{ question: 'x?' }] })).status).toBe(400);
    expect((await (await loginChild(t.agent(), famA)).post('/api/expert/questions/persona-variants').send({ questions: [{ question: 'Who?', answer: 'me' }] })).status).toBe(403);
    expect(await count(t.db, 'SELECT COUNT(*) AS n FROM persona_variants')).toBe(before);
  });
});
