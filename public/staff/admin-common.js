// Pieces shared by the admin video pages: the download result, assignments (jobs: admin-jobs.js).
import { api, h, listFrom } from './lib.js';

/** A download result shown plainly: what happened, and on failure the error code and what to do. */
export function downloadResultView(r) {
  const ok = r.success === true;
  const rows = [];
  const add = (label, value) => {
    if (value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)) {
      rows.push(h('dt', {}, label), h('dd', {}, Array.isArray(value) ? value.join(', ') : String(value)));
    }
  };
  if (ok) {
    add('Title', r.title);
    add('Video id', r.video_id);
    if (r.duration) add('Length', `${Math.round(r.duration)} s`);
    add('Sign-in used', r.auth_source);
    add('Player clients', r.used_player_client);
    add('Files', (r.files ?? []).map((f) => f.split(/[\\/]/).pop()));
  } else {
    add('Error code', r.error_code || r.error || 'download_failed');
    add('What to do', r.recovery_hint || 'Check the link and try again.');
    add('Sign-in tried', r.auth_source);
    add('Player clients tried', r.used_player_client);
  }
  const box = h(
    'div',
    { class: `msg ${ok ? 'msg-ok' : 'msg-bad'}`, role: ok ? 'status' : 'alert', 'data-testid': 'download-result' },
    h('strong', {}, ok ? 'Downloaded. ' : 'The download failed. '),
    r.message || '',
    rows.length ? h('dl', {}, rows) : '',
  );
  if (ok && r.subtitle_warning) box.append(h('p', { class: 'msg msg-warn' }, `Subtitles: ${r.subtitle_warning}`));
  if (ok && r.video_id) {
    box.append(h('p', {}, h('a', { class: 'btn btn-small', href: `/admin/videos/${encodeURIComponent(r.video_id)}` }, 'Open this video: frames and questions →')));
  }
  return box;
}

/** video_id -> { assigned: [{expert_id, expert_name}], claimedBy: {expert_id, expert_name} | null }. */
export async function loadAssignments() {
  const data = await api('GET', '/api/admin/videos/assignments');
  const map = new Map();
  const entry = (id) => {
    if (!map.has(id)) map.set(id, { assigned: [], claimedBy: null });
    return map.get(id);
  };
  // one item per video with its assigned_experts (older answers: one item per assignment)
  for (const a of listFrom(data, 'assignments')) {
    for (const x of a.assigned_experts ?? [a]) entry(a.video_id).assigned.push({ expert_id: x.expert_id, expert_name: x.expert_name || x.expert_id });
  }
  for (const c of listFrom(data, 'claims')) entry(c.video_id).claimedBy = { expert_id: c.expert_id, expert_name: c.expert_name || c.expert_id };
  return map;
}

/** "Ms Lee, Dr Kim (claimed by Dr Kim)" */
export function whoHas(entry) {
  if (!entry) return '';
  const names = entry.assigned.map((a) => a.expert_name);
  if (entry.claimedBy) names.push(`claimed by ${entry.claimedBy.expert_name}`);
  return names.join(', ');
}
