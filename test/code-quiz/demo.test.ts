import { afterAll, describe, expect, it } from 'vitest';
import { loginAdmin, startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp | undefined;
afterAll(() => t?.close());

const classes = async (app: TestApp) => (await app.db.all<{ id: number; expert_id: string; name: string }>('SELECT id, expert_id, name FROM classes'));

describe('the demo coding class (DEMO_SEED)', () => {
  it('gives the demo family a class with a checked problem, once, and never brings a deleted one back', async () => {
    t = await startTestApp({ DEMO_SEED: 'true' });
    await expect.poll(async () => (await classes(t!)).length, { timeout: 60_000, interval: 200 }).toBe(1);
    const [cls] = await classes(t);
    expect(cls).toMatchObject({ expert_id: 'demo', name: 'Demo coding club' });
    const sam = (await t.db.first<{ id: string }>("SELECT id FROM children WHERE expert_id = 'demo'"))!;
    expect(await t.db.all('SELECT child_id FROM class_enrolments WHERE class_id = ?', [cls!.id])).toEqual([{ child_id: sam.id }]);
    const problem = (await t.db.first<{ title: string; hints_json: string }>('SELECT title, hints_json FROM code_problems WHERE class_id = ?', [cls!.id]))!;
    expect(problem.title).toBe('Count up');
    expect((JSON.parse(problem.hints_json) as unknown[]).length).toBe(3);

    t = await t.restart();
    expect(await classes(t)).toHaveLength(1);
    const admin = await loginAdmin(t.agent());
    expect((await admin.delete(`/api/expert/classes/${cls!.id}`)).status).toBe(200);
    t = await t.restart();
    expect(await classes(t)).toEqual([]);
  }, 120_000);
});
