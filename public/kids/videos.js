// The video grid: big thumbnails, one tap plays with the chosen companion.
import { api, initPage, iconHref, svgUse, mediaUrl, showError, rememberCompanion, rememberedCompanion, showCompanion, COMPANIONS } from './common.js';
import { loadProgress } from './progress.js';

const list = document.getElementById('videos');
const empty = document.getElementById('videos-empty');
const error = document.getElementById('videos-error');

const query = new URLSearchParams(location.search);
let companion = COMPANIONS.includes(query.get('companion')) ? query.get('companion') : null;

const page = initPage();
init();

async function init() {
  let child = null;
  try {
    const session = /** @type {KvqApi.Session} */ (await api('/api/learners/session'));
    child = session.child;
  } catch {
    return;
  }
  if (!child) {
    location.assign('/kids/profiles');
    return;
  }
  const childId = String(child.child_id);
  if (companion) rememberCompanion(childId, companion);
  else companion = rememberedCompanion(childId) || 'bunny';
  showCompanion(document.querySelector('.kwho-friend'), companion);
  document.getElementById('me-icon').setAttribute('href', iconHref(child.icon_key));
  document.getElementById('me-name').textContent = child.first_name || '';
  page.sayInstruction();

  try {
    const videos = await loadVideos(childId);
    const progress = await loadProgress(childId).catch(() => new Map());
    list.replaceChildren(...videos.map((v) => card(v, progress.get(v.video_id))));
    empty.hidden = videos.length > 0;
  } catch {
    showError(error, 'Could not load the videos.');
  } finally {
    list.setAttribute('aria-busy', 'false');
  }
}

async function loadVideos(childId) {
  try {
    const body = /** @type {KvqApi.KidsVideos} */ (await api('/api/kids_videos'));
    return body.videos || [];
  } catch (err) {
    if (err.status === 401) throw err;
    const body = /** @type {KvqApi.KidsVideos} */ (await api(`/api/learners/children/${encodeURIComponent(childId)}/videos`));
    return body.videos || [];
  }
}

function card(video, progress) {
  const li = document.createElement('li');
  const a = document.createElement('a');
  a.className = 'kcard kcard-video';
  a.href = `/kids/play/${encodeURIComponent(video.video_id)}?companion=${encodeURIComponent(companion)}`;
  a.setAttribute('aria-label', video.title || 'Video');
  a.dataset.videoId = video.video_id;
  const thumb = document.createElement('div');
  thumb.className = 'thumb';
  const src = mediaUrl(video.video_id, video.thumbnail);
  if (src) {
    const img = document.createElement('img');
    img.alt = '';
    img.loading = 'lazy';
    img.src = src;
    img.addEventListener('error', () => img.remove());
    thumb.append(img);
  }
  const badge = document.createElement('span');
  badge.className = 'play-badge';
  badge.append(svgUse('ui-play'));
  thumb.append(badge);
  if (progress?.completed) {
    thumb.append(svgUse(iconHref('star'), 'done-badge'));
  } else if (progress?.fraction > 0) {
    const bar = document.createElement('span');
    bar.className = 'resume-badge';
    const fill = document.createElement('span');
    fill.style.width = `${Math.round(progress.fraction * 100)}%`;
    bar.append(fill);
    thumb.append(bar);
  }
  const title = document.createElement('span');
  title.className = 'kcard-title';
  title.textContent = video.title || '';
  title.setAttribute('aria-hidden', 'true');
  a.append(thumb, title);
  li.append(a);
  return li;
}
