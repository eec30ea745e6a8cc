import type { AppContext } from '../context.js';
import { registerKidPages } from './kids.pages.js';
import { registerStaffPages } from './staff.pages.js';
import { COMPANION_PROFILES } from '../speech/companion-lines.js';

export function registerPages(ctx: AppContext): void {
  // browsers ask for /favicon.ico on their own (a JSON or media URL has no <link rel="icon">)
  ctx.app.get('/favicon.ico', (_req, res) => res.redirect(301, '/static/favicon.svg'));
  // the one list of companions, for the staff pages too (names as the children hear them)
  const companions = COMPANION_PROFILES.map(({ key, name }) => ({ key, name }));
  ctx.app.locals.companionList = companions;
  ctx.app.locals.companionsJson = JSON.stringify(companions).replace(/</g, '\\u003c');
  registerKidPages(ctx);
  registerStaffPages(ctx);
}
