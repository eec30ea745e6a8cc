import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ICON_KEYS } from '../../src/accounts/icons.js';
import { createExpert, createFamily, loginAdmin, loginChild, loginExpert, startTestApp, type TestApp, type TestFamily } from '../helpers/app.js';

/** The kids page routes: who may see which page, where everyone else goes, and the preview. */

const PUBLIC_KIDS = path.resolve('public/kids');

let t: TestApp;
let family: TestFamily;
let sampleId: string;

beforeAll(async () => {
  t = await startTestApp({ SAMPLE_IMPORT: 'true' });
  family = await createFamily(t, { first_name: 'Ada', icon_key: 'owl', interaction_mode: 'passive' });
  // the sample reaches a family through its expert, like any library video
  await t.db.run('INSERT INTO video_assignments (video_id, expert_id) SELECT id, ? FROM videos WHERE is_sample = 1', [family.expert.expert_id]);
  const row = await t.db.first<{ id: string }>('SELECT id FROM videos WHERE is_sample = 1');
  expect(row).toBeDefined();
  sampleId = row!.id;
  // a video that only another expert may see
  await t.db.run("INSERT INTO videos (id, title, state) VALUES ('otherVideo1', 'Not yours', 'downloaded')");
  const other = await createExpert(t);
  await t.db.run('INSERT INTO video_assignments (video_id, expert_id) VALUES (?, ?)', ['otherVideo1', other.expert_id]);
});

afterAll(async () => {
  await t?.close();
});

function kidsData(html: string) {
  const m = /<script type="application\/json" id="kids-data">([^<]*)<\/script>/.exec(html);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]!);
}

async function familyTablet(pick: boolean) {
  const agent = t.agent();
  if (pick) return loginChild(agent, family);
  const res = await agent.post('/api/learners/parents/login').send({ access_code: family.parentCode });
  expect(res.status).toBe(200);
  return agent;
}

describe('GET /kids (family-code login)', () => {
  it('shows the keypad to anyone, with no inline script', async () => {
    const res = await t.agent().get('/kids');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text.match(/class="key"/g)).toHaveLength(10);
    expect(res.text).toContain(`src="${t.app.locals.staticBase}/kids/login.js"`);
    // the only script without src is the page's JSON data, which a browser never runs
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/);
  });

  it('embeds the one companion list and the voice clips, and asks no speech of an anonymous page', async () => {
    const res = await t.agent().get('/kids');
    const data = kidsData(res.text);
    expect(data.companions.map((c: { key: string }) => c.key)).toEqual(['bunny', 'pig', 'alligator']);
    expect(data.companions[1]).toMatchObject({ name: 'Piggy', pitch: 1.15 });
    expect(data.companions[1].lines.correct).toContain('Oink oink! That is right!');
    expect(data.tts).toBe(false);
    const url: string = data.voice['-|Hello! Ask a grown-up to type the family code.'];
    expect(url).toMatch(/^\/kids\/voice\/[a-f0-9]{64}\.mp3$/);
    expect(data.voice['pig|Oink oink! That is right!']).toMatch(/^\/kids\/voice\//);
    // no line with the answer in it is rendered ahead of time
    expect(Object.keys(data.voice).some((k) => k.includes('{a}'))).toBe(false);
    const picked = await familyTablet(true);
    expect(kidsData((await picked.get('/kids/videos')).text).tts).toBe(true);
  });

  it('sends a logged-in tablet on: to the profiles, or to the videos once a child is picked', async () => {
    expect((await (await familyTablet(false)).get('/kids')).headers.location).toBe('/kids/profiles');
    const picked = await familyTablet(true);
    const res = await picked.get('/kids');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/kids/videos');
    expect((await picked.get('/kids?switch')).status).toBe(200);
  });
});

describe('GET /kids/profiles, /kids/companion, /kids/videos', () => {
  it('sends people without a tablet session to /kids', async () => {
    for (const page of ['/kids/profiles', '/kids/companion', '/kids/videos']) {
      const res = await t.agent().get(page);
      expect(res.status, page).toBe(303);
      expect(res.headers.location).toBe('/kids');
    }
    const expert = await loginExpert(t.agent(), family.expert.code);
    expect((await expert.get('/kids/videos')).headers.location).toBe('/kids');
  });

  it('asks a tablet to pick a profile before the companion and the videos', async () => {
    const tablet = await familyTablet(false);
    expect((await tablet.get('/kids/profiles')).status).toBe(200);
    for (const page of ['/kids/companion', '/kids/videos']) {
      const res = await tablet.get(page);
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/kids/profiles');
    }
  });

  it('renders the three companions and the video grid for a picked profile', async () => {
    const tablet = await familyTablet(true);
    const companions = await tablet.get('/kids/companion');
    expect(companions.status).toBe(200);
    for (const c of ['bunny', 'pig', 'alligator']) expect(companions.text).toContain(`data-pick="${c}"`);
    const videos = await tablet.get('/kids/videos');
    expect(videos.status).toBe(200);
    expect(videos.headers['cache-control']).toBe('no-store');
    expect(videos.text).toContain('id="videos"');
  });
});

describe('GET /kids/play/{video_id}', () => {
  it('plays a video of the family for the picked child, in the mode of the profile', async () => {
    const tablet = await familyTablet(true);
    const res = await tablet.get(`/kids/play/${sampleId}?preview=1&mode=strict&companion=pig`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`data-video-id="${sampleId}"`);
    expect(res.text).toContain('data-preview="0"');
    // a child cannot choose the mode (nor a preview) through the URL
    expect(res.text).toContain('data-mode=""');
    expect(res.text).toContain('data-companion="pig"');
    expect(res.text).not.toContain('Nothing is saved');
  });

  it('refuses bad ids and sends a child back to the grid for a video that is not theirs', async () => {
    const tablet = await familyTablet(true);
    expect((await tablet.get('/kids/play/..%2Fetc')).status).toBe(404);
    expect((await tablet.get('/kids/play/a.b')).status).toBe(404);
    const other = await tablet.get('/kids/play/otherVideo1');
    expect(other.status).toBe(303);
    expect(other.headers.location).toBe('/kids/videos');
    expect((await t.agent().get(`/kids/play/${sampleId}`)).headers.location).toBe('/kids');
  });

  it('is a preview for experts and admins, with companion and mode from the query', async () => {
    const expert = await loginExpert(t.agent(), family.expert.code);
    const res = await expert.get(`/kids/play/${sampleId}?preview=1&companion=alligator&mode=strict`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('data-preview="1"');
    expect(res.text).toContain('data-companion="alligator"');
    expect(res.text).toContain('data-mode="strict"');
    expect(res.text).toContain('Nothing is saved');
    const odd = await expert.get(`/kids/play/${sampleId}?preview=1&companion=dragon&mode=chaos`);
    expect(odd.text).toContain('data-companion=""');
    expect(odd.text).toContain('data-mode=""');
    expect((await expert.get('/kids/play/otherVideo1?preview=1')).status).toBe(403);
    expect((await expert.get('/kids/play/noSuchVideo?preview=1')).status).toBe(404);
    const admin = await loginAdmin(t.agent());
    expect((await admin.get('/kids/play/otherVideo1?preview=1&mode=flexible')).text).toContain('data-mode="flexible"');
  });
});

describe('kids static files', () => {
  it('serves every module the pages load, and every import between them resolves', async () => {
    const files = fs.readdirSync(PUBLIC_KIDS).filter((f) => f.endsWith('.js'));
    for (const f of files) {
      const res = await t.agent().get(`/static/kids/${f}`);
      expect(res.status, f).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      for (const m of fs.readFileSync(path.join(PUBLIC_KIDS, f), 'utf8').matchAll(/from '\.\/([^']+)'/g)) {
        expect(files, `${f} imports ${m[1]}`).toContain(m[1]);
      }
    }
  });

  it('draws a picture for every profile icon key', () => {
    const sprite = fs.readFileSync(path.join(PUBLIC_KIDS, 'icons.svg'), 'utf8');
    for (const key of ICON_KEYS) expect(sprite, key).toContain(`<symbol id="icon-${key}"`);
    const mirrored = /export const ICON_KEYS = \[([^\]]+)\]/.exec(fs.readFileSync(path.join(PUBLIC_KIDS, 'common.js'), 'utf8'))![1]!;
    expect(mirrored.match(/'([a-z]+)'/g)!.map((s) => s.slice(1, -1))).toEqual([...ICON_KEYS]);
  });
});
