import type { AppContext } from '../context.js';
import { registerKidPages } from './kids.pages.js';
import { registerStaffPages } from './staff.pages.js';

export function registerPages(ctx: AppContext): void {
  // browsers ask for /favicon.ico on their own (a JSON or media URL has no <link rel="icon">)
  ctx.app.get('/favicon.ico', (_req, res) => res.redirect(301, '/static/favicon.svg'));
  registerKidPages(ctx);
  registerStaffPages(ctx);
}
