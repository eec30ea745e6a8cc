import type { Db } from '../db/database.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import type { Secrets } from '../auth/secrets.js';
import { randomDigits } from '../auth/secrets.js';
import { AccessCodes } from './access-codes.js';
import { ExpertsRepository, type Expert } from './experts.repository.js';
import { ParentsRepository, type Parent } from './parents.repository.js';
import { ChildrenRepository, type Child, type ChildFields } from './children.repository.js';

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

  constructor(
    private readonly db: Db,
    secrets: Secrets,
  ) {
    this.experts = new ExpertsRepository(db);
    this.parents = new ParentsRepository(db);
    this.children = new ChildrenRepository(db);
    this.codes = new AccessCodes(db, secrets);
  }

  requireExpert(expertId: string): Expert {
    const expert = this.experts.get(expertId);
    if (!expert) throw notFound(`Expert ${expertId} was not found.`, 'expert_not_found');
    return expert;
  }

  requireChild(childId: string): Child {
    const child = this.children.get(childId);
    if (!child) throw notFound(`Child ${childId} was not found.`, 'child_not_found');
    return child;
  }

  /** The parent, checked to belong to the expert (403 otherwise). */
  requireOwnParent(expertId: string, parentId: string): Parent {
    const parent = this.parents.get(parentId);
    if (!parent) throw notFound(`Parent ${parentId} was not found.`, 'parent_not_found');
    if (parent.expert_id !== expertId) throw forbidden('This parent is not one of yours.', 'parent_not_yours');
    return parent;
  }

  /** Creates the expert, their default family and their first access code in one transaction. */
  createExpert(input: { expert_id: string; display_name: string; password: string }): Expert {
    return this.db.transactionSync(() => {
      if (this.experts.get(input.expert_id)) throw conflict(`An expert with id ${input.expert_id} already exists.`, 'expert_exists');
      this.experts.insert(input.expert_id, input.display_name);
      this.parents.insert(input.expert_id, `${input.display_name} (family)`, true);
      this.codes.set('expert', input.expert_id, input.password);
      return this.experts.get(input.expert_id)!;
    });
  }

  updateExpert(expertId: string, fields: { display_name?: string; login_code?: string; active?: boolean }): Expert {
    return this.db.transactionSync(() => {
      this.requireExpert(expertId);
      this.experts.update(expertId, fields);
      if (fields.login_code !== undefined) this.codes.set('expert', expertId, fields.login_code);
      if (fields.active === false) this.endSessionsOfExpert(expertId);
      return this.experts.get(expertId)!;
    });
  }

  /**
   * Deletes an expert without ever taking a child's history with them: while the expert owns
   * children the delete is refused (409), unless `moveChildrenTo` names another active expert,
   * who then receives the families, the children (with every attempt) and the videos (see
   * ExpertsRepository.transfer). Families that had no children go with the expert.
   */
  deleteExpert(expertId: string, opts: { moveChildrenTo?: string } = {}): { moved: { parents: number; children: number; videos: number } | null } {
    return this.db.transactionSync(() => {
      const expert = this.requireExpert(expertId);
      let moved = null;
      if (opts.moveChildrenTo !== undefined) {
        if (opts.moveChildrenTo === expertId) throw badRequest('Name another expert to move the children to.', undefined, 'move_to_same_expert');
        const target = this.experts.get(opts.moveChildrenTo);
        if (!target) throw notFound(`Expert ${opts.moveChildrenTo} (move_children_to) was not found.`, 'expert_not_found');
        if (!target.active) throw conflict(`Expert ${target.expert_id} is deactivated: their families could not log in. Activate them first or name another expert.`, 'move_target_inactive');
        moved = this.experts.transfer(expertId, target.expert_id);
      } else {
        const held = this.experts.holdings(expertId);
        if (held.children > 0) {
          const kids = held.children === 1 ? '1 child' : `${held.children} children`;
          throw new AppError(409, 'expert_has_children',
            `${expert.display_name} still owns ${kids} with ${held.attempts} saved quiz attempt${held.attempts === 1 ? '' : 's'}. ` +
            `Move them to another expert (DELETE /api/admin/experts/${expertId}?move_children_to=<expert_id>) or delete the children first.`,
            { children: held.children, attempts: held.attempts });
        }
      }
      // sessions first: the families' tablet sessions name this expert even when the families moved
      this.endSessionsOfExpert(expertId);
      for (const parentId of this.parents.idsForExpert(expertId)) this.codes.remove('parent', parentId);
      this.codes.remove('expert', expertId);
      this.experts.delete(expertId);
      return { moved };
    });
  }

  createParent(expertId: string, displayName: string, loginCode?: string): Parent {
    return this.db.transactionSync(() => {
      this.requireExpert(expertId);
      const parent = this.parents.insert(expertId, displayName, false);
      if (loginCode !== undefined) this.codes.set('parent', parent.parent_id, loginCode);
      return parent;
    });
  }

  createChild(input: Required<Pick<ChildFields, 'first_name' | 'expert_id'>> & ChildFields): Child {
    return this.db.transactionSync(() => {
      this.requireExpert(input.expert_id);
      const parentId = input.parent_id === undefined ? this.parents.defaultFor(input.expert_id)?.parent_id ?? null : input.parent_id;
      if (parentId) this.assertParentOfExpert(parentId, input.expert_id);
      return this.children.insert({ ...input, parent_id: parentId });
    });
  }

  updateChild(childId: string, fields: ChildFields): Child {
    return this.db.transactionSync(() => {
      const child = this.requireChild(childId);
      const expertId = fields.expert_id ?? child.expert_id;
      if (fields.expert_id !== undefined) this.requireExpert(fields.expert_id);
      // moving a child to another expert drops a parent link that belonged to the old expert
      let parentId = fields.parent_id;
      if (parentId === undefined && expertId !== child.expert_id) parentId = null;
      if (parentId) this.assertParentOfExpert(parentId, expertId);
      this.children.update(childId, { ...fields, parent_id: parentId });
      return this.children.get(childId)!;
    });
  }

  /** Generates a fresh numeric code that no account uses yet. */
  generateUnusedCode(length: number): string {
    for (;;) {
      const code = randomDigits(length);
      if (!this.codes.find(code)) return code;
    }
  }

  /** Logs out every session of the expert and of their families' tablets. */
  endSessionsOfExpert(expertId: string): void {
    this.db.runSync("DELETE FROM sessions WHERE json_extract(sess, '$.expertId') = ?", [expertId]);
  }

  private assertParentOfExpert(parentId: string, expertId: string): void {
    const parent = this.parents.get(parentId);
    if (!parent) throw badRequest(`Parent ${parentId} does not exist.`, undefined, 'parent_not_found');
    if (parent.expert_id !== expertId) throw badRequest('The parent belongs to another expert.', undefined, 'parent_of_other_expert');
  }
}
