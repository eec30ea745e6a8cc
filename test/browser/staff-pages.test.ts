import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFamily, createExpert, loginAdmin, loginChild, loginExpert, startTestApp, type TestApp, type TestFamily } from '../helpers/app.js';

/** The staff page routes without a browser: who may open what, ids checked, safe redirects. */
describe('staff page routes', () => {
  let t: TestApp;
  let fam: TestFamily;

  beforeAll(async () => {
    t = await startTestApp();
    fam = await createFamily(t);
    await t.db.run("INSERT INTO videos (id, title, duration_seconds) VALUES ('vidOwn01', 'Own <video>', 42), ('vidOther1', 'Other', 10)");
    await t.db.run('INSERT INTO video_assignments (video_id, expert_id) VALUES (?, ?)', ['vidOwn01', fam.expert.expert_id]);
  });
  afterAll(() => t.close());

  it('serves the chooser and the two login pages to anyone', async () => {
    const a = t.agent();
    const home = await a.get('/');
    expect(home.status).toBe(200);
    expect(home.text).toContain('href="/kids"');
    expect(home.text).toContain('href="/expert"');
    expect(home.text).toContain('href="/admin"');
    const admin = await a.get('/admin');
    expect(admin.text).toContain('id="password"');
    expect(admin.text).toContain(`src="${t.app.locals.staticBase}/staff/login.js"`);
    const expert = await a.get('/expert');
    expect(expert.text).toContain('id="access_code"');
    expect(expert.text).not.toMatch(/<script>(?!<\/script>)/);
  });

  it('sends anonymous callers to the right login with a way back', async () => {
    const a = t.agent();
    const r1 = await a.get('/admin/children');
    expect(r1.status).toBe(303);
    expect(r1.headers.location).toBe('/admin?next=%2Fadmin%2Fchildren');
    const r2 = await a.get('/expert/edit/vidOwn01');
    expect(r2.headers.location).toBe('/expert?next=%2Fexpert%2Fedit%2FvidOwn01');
  });

  it('keeps `next` inside the same area', async () => {
    const a = t.agent();
    for (const bad of ['//evil.example', 'https://evil.example/admin', '/admin//evil.example', '/expert', 'javascript:alert(1)']) {
      const r = await a.get(`/admin?next=${encodeURIComponent(bad)}`);
      expect(r.text, bad).toContain('data-next="/admin"');
    }
    const ok = await a.get(`/admin?next=${encodeURIComponent('/admin/videos/vidOwn01')}`);
    expect(ok.text).toContain('data-next="/admin/videos/vidOwn01"');
  });

  it('keeps each role in its own area', async () => {
    const expert = await loginExpert(t.agent(), fam.expert.code);
    expect((await expert.get('/admin/experts')).status).toBe(303);
    const adminLogin = await expert.get('/admin');
    expect(adminLogin.text).toContain('id="password"');
    const child = await loginChild(t.agent(), fam);
    expect((await child.get('/expert/parents')).status).toBe(303);
    expect((await child.get('/admin/children')).status).toBe(303);
    const admin = await loginAdmin(t.agent());
    expect((await admin.get('/expert/reports')).status).toBe(303);
  });

  it('renders every admin page for the admin, escaping titles', async () => {
    const admin = await loginAdmin(t.agent());
    for (const p of ['/admin', '/admin/experts', '/admin/children', '/admin/videos/vidOwn01', `/admin/reports/${fam.child.child_id}`]) {
      const r = await admin.get(p);
      expect(r.status, p).toBe(200);
      expect(r.text, p).toContain('data-logout="/api/admin/logout"');
    }
    const video = await admin.get('/admin/videos/vidOwn01');
    expect(video.text).toContain('<h1>Own &lt;video&gt;</h1>');
    expect(video.text).toContain('data-video-id="vidOwn01"');
    const children = await admin.get('/admin/children');
    // the page carries the families (no admin API lists them) and the picture choices
    expect(children.text).toContain(fam.parentId);
    expect(children.text).toContain('value="fox"');
  });

  it('answers 404 pages for unknown or malformed ids', async () => {
    const admin = await loginAdmin(t.agent());
    for (const p of ['/admin/videos/nope', '/admin/videos/..%2F..%2Fetc', '/admin/reports/123', '/admin/reports/999999']) {
      const r = await admin.get(p).set('Accept', 'text/html');
      expect(r.status, p).toBe(404);
      expect(r.type).toBe('text/html');
    }
  });

  it("renders the expert's pages and refuses someone else's video or child", async () => {
    const expert = await loginExpert(t.agent(), fam.expert.code);
    for (const p of ['/expert', '/expert/questions', '/expert/edit/vidOwn01', '/expert/preview/vidOwn01', '/expert/parents', '/expert/reports', `/expert/reports/${fam.child.child_id}`, '/expert/account']) {
      const r = await expert.get(p);
      expect(r.status, p).toBe(200);
      expect(r.text, p).toContain('data-logout="/api/expert/logout"');
    }
    const preview = await expert.get('/expert/preview/vidOwn01');
    expect(preview.text).toContain('href="/kids/play/vidOwn01?preview=1&amp;companion=bunny&amp;mode=flexible"');
    // the one list of companions, with the names the children hear
    expect(preview.text).toContain('value="pig"');
    expect(preview.text).toContain(' Piggy</label>');
    const data = /<script type="application\/json" id="companions-data">([^<]*)<\/script>/.exec(preview.text);
    expect(JSON.parse(data![1]!)).toEqual([{ key: 'bunny', name: 'Bunny' }, { key: 'pig', name: 'Piggy' }, { key: 'alligator', name: 'Gator' }]);
    expect((await expert.get('/expert/edit/vidOther1').set('Accept', 'text/html')).status).toBe(403);
    const other = await createExpert(t);
    const otherFamily = await createFamily(t);
    const stranger = await loginExpert(t.agent(), other.code);
    expect((await stranger.get(`/expert/reports/${otherFamily.child.child_id}`).set('Accept', 'text/html')).status).toBe(403);
  });
});
