import type { InstanceProcess } from '../../test/helpers/instance-process.js';
import { attemptBodies, checkAnswerBodies } from './scale-report.js';

/**
 * bench/scale.ts's data, made through the service's own API as a school would make it (no SQL):
 * an expert, a child in a family with a code, the bundled sample assigned, and a tablet (child
 * session) logged in on every instance; then the request bodies built from the sample's final
 * questions as a child session gets them.
 */

export const ADMIN_PASSWORD = 'bench-scale-admin-password';
export const VIDEO = 'sample-red-ball';

/** What the load needs per engine: the request bodies, and a child session cookie per instance. */
export interface BenchData {
  bodies: { check: string[]; save: string[] };
  cookies: string[];
}

/** JSON call with a cookie; returns the status, body and the session cookie it set (if any). */
async function call(base: string, method: string, url: string, json?: unknown, cookie?: string) {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + url, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(body)}`);
  const set = res.headers.get('set-cookie');
  return { body, cookie: set ? set.split(';')[0]! : cookie };
}

/**
 * Through the API on the first instance: an expert, a child in a family with a code, the sample
 * assigned to the expert; then a tablet logged in with the family code on every instance, and
 * the request bodies built from the sample's final questions as a child session gets them.
 */
export async function setUp(instances: InstanceProcess[]): Promise<BenchData> {
  const first = instances[0]!.url;
  const admin = (await call(first, 'POST', '/api/admin/verify-access', { password: ADMIN_PASSWORD })).cookie;
  const expertCode = 'bench-expert-code-7f3k';
  const familyCode = 'bench-family-code-9q2m';
  await call(first, 'POST', '/api/admin/experts', { expert_id: 'bench-expert', display_name: 'Bench Expert', password: expertCode }, admin);
  const child = (await call(first, 'POST', '/api/admin/children', { expert_id: 'bench-expert', first_name: 'Mia' }, admin)).body.child as {
    child_id: string;
    parent_id: string;
  };
  await call(first, 'POST', '/api/admin/videos/assignments', { video_id: VIDEO, expert_id: 'bench-expert' }, admin);
  const expert = (await call(first, 'POST', '/api/expert/login', { access_code: expertCode })).cookie;
  await call(first, 'PUT', `/api/expert/parents/${child.parent_id}/login-code`, { login_code: familyCode }, expert);
  const cookies: string[] = [];
  for (const inst of instances) {
    const tablet = (await call(inst.url, 'POST', '/api/learners/parents/login', { access_code: familyCode })).cookie;
    const picked = (await call(inst.url, 'POST', '/api/learners/session/child', { child_id: child.child_id }, tablet)).cookie;
    cookies.push(picked!);
  }
  const final = (await call(first, 'GET', `/api/final-questions/${VIDEO}?companion=bunny`, undefined, cookies[0])).body;
  const segments = final.segments as { segment_range_start: number; segment_range_end: number; question: string; answer: string }[];
  if (!segments?.length) throw new Error(`the sample has no final questions: ${JSON.stringify(final).slice(0, 300)}`);
  return { cookies, bodies: { check: checkAnswerBodies(segments), save: attemptBodies(child.child_id, VIDEO, segments) } };
}
