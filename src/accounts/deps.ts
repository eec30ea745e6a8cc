import type { AppContext } from '../context.js';
import type { Database } from '../db/database.js';
import { Secrets } from '../auth/secrets.js';
import { LoginThrottle } from '../auth/login-throttle.js';
import { AccountsService } from './accounts.service.js';

export interface AccountsDeps {
  secrets: Secrets;
  accounts: AccountsService;
  throttle: LoginThrottle;
}

// One set per database, shared by the auth and accounts routes of the same app.
const byDb = new WeakMap<Database, AccountsDeps>();

export function accountsDeps(ctx: Pick<AppContext, 'db' | 'config'>): AccountsDeps {
  let deps = byDb.get(ctx.db);
  if (!deps) {
    const secrets = new Secrets(ctx.config.SESSION_SECRET);
    deps = { secrets, accounts: new AccountsService(ctx.db, secrets), throttle: new LoginThrottle(ctx.db, secrets) };
    byDb.set(ctx.db, deps);
  }
  return deps;
}
