import type { AppContext } from '../context.js';
import { registerKidPages } from './kids.pages.js';
import { registerStaffPages } from './staff.pages.js';

export function registerPages(ctx: AppContext): void {
  registerKidPages(ctx);
  registerStaffPages(ctx);
}
