import type { AppContext } from '../context.js';
import { registerAdminAccountRoutes } from './admin.routes.js';
import { registerExpertAccountRoutes } from './expert.routes.js';
import { accountsDeps } from './deps.js';
import { seedDemoFamily } from './demo-seed.js';

export function registerAccounts(ctx: AppContext): void {
  registerAdminAccountRoutes(ctx);
  registerExpertAccountRoutes(ctx);
  if (ctx.config.DEMO_SEED) {
    ctx.onStart(async () => {
      const codes = await seedDemoFamily(accountsDeps(ctx).accounts);
      if (!codes) return;
      // Printed once, to the terminal only (stderr, never the JSON log on stdout): the codes exist
      // nowhere else in plain text.
      process.stderr.write(
        [
          '',
          '  Demo family created (shown only this once):',
          `    expert login (/expert):       code ${codes.expert_code}  (expert id "${codes.expert_id}")`,
          `    family code for kids (/kids): ${codes.parent_code}`,
          `    child profile:                Sam (${codes.child_id})`,
          '',
        ].join('\n') + '\n',
      );
    });
  }
}
