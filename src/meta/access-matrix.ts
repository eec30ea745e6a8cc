import type { RegisteredRoute } from '../http/api.js';

/**
 * The README's access matrix, generated from the route table (the same definitions that
 * enforce access), so the documentation cannot drift from the code.
 */
export function accessMatrixMarkdown(routes: RegisteredRoute[]): string {
  const mark = (r: RegisteredRoute, role: 'admin' | 'expert' | 'child') =>
    r.access === 'public' || r.access === 'authenticated' || r.access.includes(role) ? 'yes' : '-';
  const rows = [...routes]
    .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
    .map((r) => `| ${r.method.toUpperCase()} | \`${r.path}\` | ${r.access === 'public' ? 'yes' : '-'} | ${mark(r, 'admin')} | ${mark(r, 'expert')} | ${mark(r, 'child')} |`);
  return ['| Method | Path | anonymous | admin | expert | child session |', '|---|---|---|---|---|---|', ...rows].join('\n');
}
