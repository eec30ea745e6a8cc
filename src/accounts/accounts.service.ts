import type { Database } from '../db/database.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import type { Secrets } from '../auth/secrets.js';
import { randomDigits } from '../auth/secrets.js';
import { AccessCodes } from './access-codes.js';
import { ExpertsRepository, type Expert } from './experts.repository.js';
import { ParentsRepository, type Parent } from './parents.repository.js';
import { ChildrenRepository, type Child, type ChildFields } from './children.repository.js';
import { SessionsRepository } from './sessions.repository.js';

/**
 * The rules about people: experts own a default family (parent) and may create more parents;
 * children belong to an expert and optionally to one of that expert's parents; codes are
 * unique across every expert and parent.
 */
export class AccountsService {
  readonly experts: ExpertsRepository;
  readonly parents: ParentsRepository;
  readonly children: ChildrenRepository;
  readonly codes: AccessCodes;
  private readonly sessions: SessionsRepository;

  constructor(
    private readonly db: Database,
    private readonly secrets: Secrets,
  ) {
    this.experts = new ExpertsRepository(db);
    this.parents = new ParentsRepository(db);
    this.children = new ChildrenRepository(db);
    this.codes = new AccessCodes(db, secrets);
    this.sessions = new SessionsRepository(db);
  }

  /** The same service on a transaction's handle: every query of `fn` runs inside it. */
  private inTransaction<T>(fn: (tx: AccountsService) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new AccountsService(tx, this.secrets)));
  }

  async requireExpert(expertId: string): Promise<Expert> {
    const expert = await this.experts.get(expertId);
    if (!expert) throw notFound(`Expert ${expertId} was not found.`, 'expert_not_found');
    return expert;
  }

  async requireChild(childId: string): Promise<Child> {
    const child = await this.children.get(childId);
    if (!child) throw notFound(`Child ${childId} was not found.`, 'child_not_found');
    return child;
  }

  /** The parent, checked to belong to the expert (403 otherwise). */
  async requireOwnParent(expertId: string, parentId: string): Promise<Parent> {
    const parent = await this.parents.get(parentId);
    if (!parent) throw notFound(`Parent ${parentId} was not found.`, 'parent_not_found');
    if (parent.expert_id !== expertId) throw forbidden('This parent is not one of yours.', 'parent_not_yours');
    return parent;
  }

  /** Creates the expert, their default family and their first access code in one transaction. */
  createExpert(input: { expert_id: string; display_name: string; password: string }): Promise<Expert> {
    return this.inTransaction(async (a) => {
      if (await a.experts.get(input.expert_id)) throw conflict(`An expert with id ${input.expert_id} already exists.`, 'expert_exists');
      await a.experts.insert(input.expert_id, input.display_name);
      await a.parents.insert(input.expert_id, `${input.display_name} (family)`, true);
      await a.codes.set('expert', input.expert_id, input.password);
      return (await a.experts.get(input.expert_id))!;
    });
  }

  updateExpert(expertId: string, fields: { display_name?: string; login_code?: string; active?: boolean }): Promise<Expert> {
    return this.inTransaction(async (a) => {
      await a.requireExpert(expertId);
      await a.experts.update(expertId, fields);
      if (fields.login_code !== undefined) await a.codes.set('expert', expertId, fields.login_code);
      if (fields.active === false) await a.endSessionsOfExpert(expertId);
      return (await a.experts.get(expertId))!;
    });
  }

  /**
   * Deletes an expert without ever taking a child's history with them: while the expert owns
   * children the delete is refused (409), unless `moveChildrenTo` names another active expert,
   * who then receives the families, the children (with every attempt) and the videos (see
   * ExpertsRepository.transfer). Families that had no children go with the expert.
   */
  deleteExpert(expertId: string, opts: { moveChildrenTo?: string } = {}): Promise<{ moved: { parents: number; children: number; videos: number } | null }> {
    return this.inTransaction(async (a) => {
      const expert = await a.requireExpert(expertId);
      let moved = null;
      if (opts.moveChildrenTo !== undefined) {
        if (opts.moveChildrenTo === expertId) throw badRequest('Name another expert to move the children to.', undefined, 'move_to_same_expert');
        const target = await a.experts.get(opts.moveChildrenTo);
        if (!target) throw notFound(`Expert ${opts.moveChildrenTo} (move_children_to) was not found.`, 'expert_not_found');
        if (!target.active) throw conflict(`Expert ${target.expert_id} is deactivated: their families could not log in. Activate them first or name another expert.`, 'move_target_inactive');
        moved = await a.experts.transfer(expertId, target.expert_id);
      } else {
        const held = await a.experts.holdings(expertId);
        if (held.children > 0) {
          const kids = held.children === 1 ? '1 child' : `${held.children} children`;
          throw new AppError(409, 'expert_has_children',
            `${expert.display_name} still owns ${kids} with ${held.attempts} saved quiz attempt${held.attempts === 1 ? '' : 's'}. ` +
            `Move them to another expert (DELETE /api/admin/experts/${expertId}?move_children_to=<expert_id>) or delete the children first.`,
            { children: held.children, attempts: held.attempts });
        }
      }
      // sessions first: the families' tablet sessions name this expert even when the families moved
      await a.endSessionsOfExpert(expertId);
      for (const parentId of await a.parents.idsForExpert(expertId)) await a.codes.remove('parent', parentId);
      await a.codes.remove('expert', expertId);
      await a.experts.delete(expertId);
      return { moved };
    });
  }

  createParent(expertId: string, displayName: string, loginCode?: string): Promise<Parent> {
    return this.inTransaction(async (a) => {
      await a.requireExpert(expertId);
      const parent = await a.parents.insert(expertId, displayName, false);
      if (loginCode !== undefined) await a.codes.set('parent', parent.parent_id, loginCode);
      return parent;
    });
  }

  createChild(input: Required<Pick<ChildFields, 'first_name' | 'expert_id'>> & ChildFields): Promise<Child> {
    return this.inTransaction(async (a) => {
      await a.requireExpert(input.expert_id);
      const parentId = input.parent_id === undefined ? (await a.parents.defaultFor(input.expert_id))?.parent_id ?? null : input.parent_id;
      if (parentId) await a.assertParentOfExpert(parentId, input.expert_id);
      return a.children.insert({ ...input, parent_id: parentId });
    });
  }

  updateChild(childId: string, fields: ChildFields): Promise<Child> {
    return this.inTransaction(async (a) => {
      const child = await a.requireChild(childId);
      const expertId = fields.expert_id ?? child.expert_id;
      if (fields.expert_id !== undefined) await a.requireExpert(fields.expert_id);
      // moving a child to another expert drops a parent link that belonged to the old expert
      let parentId = fields.parent_id;
      if (parentId === undefined && expertId !== child.expert_id) parentId = null;
      if (parentId) await a.assertParentOfExpert(parentId, expertId);
      await a.children.update(childId, { ...fields, parent_id: parentId });
      return (await a.children.get(childId))!;
    });
  }

  /** Generates a fresh numeric code that no account uses yet. */
  async generateUnusedCode(length: number): Promise<string> {
    for (;;) {
      const code = randomDigits(length);
      if (!(await this.codes.find(code))) return code;
    }
  }

  /** Logs out every session of the expert and of their families' tablets. */
  async endSessionsOfExpert(expertId: string): Promise<void> {
    await this.sessions.endForExpert(expertId);
  }

  private async assertParentOfExpert(parentId: string, expertId: string): Promise<void> {
    const parent = await this.parents.get(parentId);
    if (!parent) throw badRequest(`Parent ${parentId} does not exist.`, undefined, 'parent_not_found');
    if (parent.expert_id !== expertId) throw badRequest('The parent belongs to another expert.', undefined, 'parent_of_other_expert');
  }
}
