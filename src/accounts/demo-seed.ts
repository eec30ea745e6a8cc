import type { AccountsService } from './accounts.service.js';

/** The demo expert's id: the bundled sample is assigned to them when it is first imported. */
export const DEMO_EXPERT_ID = 'demo';

export interface DemoCodes {
  expert_id: string;
  expert_code: string;
  parent_code: string;
  child_id: string;
}

/**
 * On first start with an empty database: a demo expert, their family (default parent) with a
 * code, and one child, so the bundled sample can be played right away. Codes are random and
 * shown only once, at this start; afterwards the expert can read them back on the expert page.
 */
export async function seedDemoFamily(accounts: AccountsService): Promise<DemoCodes | null> {
  if ((await accounts.experts.count()) > 0) return null;
  const expertCode = await accounts.generateUnusedCode(8);
  const expert = await accounts.createExpert({ expert_id: DEMO_EXPERT_ID, display_name: 'Demo Parent', password: expertCode });
  const parent = (await accounts.parents.defaultFor(expert.expert_id))!;
  const parentCode = await accounts.generateUnusedCode(6);
  await accounts.codes.set('parent', parent.parent_id, parentCode);
  const child = await accounts.createChild({ expert_id: expert.expert_id, first_name: 'Sam', icon_key: 'bunny', interaction_mode: 'flexible' });
  return { expert_id: expert.expert_id, expert_code: expertCode, parent_code: parentCode, child_id: child.child_id };
}
