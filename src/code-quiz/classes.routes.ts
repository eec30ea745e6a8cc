import type { AppContext } from '../context.js';
import { assertChildAccess } from '../accounts/access.js';
import { ChildrenRepository } from '../accounts/children.repository.js';
import { forbidden, notFound } from '../http/errors.js';
import { assertOwnClass } from './access.js';
import { ClassesRepository, type CodeClass } from './classes.repository.js';
import { classBody, classParams, classUpdateBody, enrolmentBody, enrolmentParams } from './code-quiz.schema.js';
import { ProblemsRepository } from './problems.repository.js';

/** Classes and enrolment: an expert groups their own children into classes. */
export function registerClassRoutes(ctx: AppContext): void {
  const { api, db } = ctx;
  const classes = new ClassesRepository(db);
  const problems = new ProblemsRepository(db);
  const view = async (c: CodeClass) => ({
    ...c,
    children: await classes.enrolled(c.class_id),
    problem_count: await problems.count(c.class_id),
  });

  api.route(
    {
      method: 'post',
      path: '/api/expert/classes',
      summary: 'Create a class (code quiz)',
      tags: ['Code quiz'],
      access: ['expert'],
      body: classBody,
    },
    async ({ body, auth }) => {
      if (auth.role !== 'expert') throw forbidden();
      return { success: true, class: await view(await classes.create(auth.expertId, body.name, body.description ?? '')) };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/expert/classes',
      summary: "The expert's classes with their children (admin: every class)",
      tags: ['Code quiz'],
      access: ['expert', 'admin'],
    },
    async ({ auth }) => {
      const list = [];
      for (const c of await classes.list(auth.role === 'expert' ? auth.expertId : undefined)) list.push(await view(c));
      // the children the expert may enrol (the admin enrols through the class's own expert's list)
      const mine = auth.role === 'expert' ? await new ChildrenRepository(db).list({ expertId: auth.expertId, includeInactive: false }) : [];
      return {
        success: true,
        classes: list,
        my_children: mine.map((c) => ({ child_id: c.child_id, first_name: c.first_name, last_name: c.last_name })),
      };
    },
  );

  api.route(
    {
      method: 'put',
      path: '/api/expert/classes/{class_id}',
      summary: 'Rename a class or change its description',
      tags: ['Code quiz'],
      access: ['expert', 'admin'],
      params: classParams,
      body: classUpdateBody,
      errors: { 403: "another expert's class", 404: 'unknown class' },
    },
    async ({ params, body, auth }) => {
      await assertOwnClass(db, auth, params.class_id);
      return { success: true, class: await view(await classes.update(params.class_id, body)) };
    },
  );

  api.route(
    {
      method: 'delete',
      path: '/api/expert/classes/{class_id}',
      summary: 'Delete a class with its problems, hints asked and runs',
      tags: ['Code quiz'],
      access: ['expert', 'admin'],
      params: classParams,
      errors: { 403: "another expert's class", 404: 'unknown class' },
    },
    async ({ params, auth }) => {
      await assertOwnClass(db, auth, params.class_id);
      await classes.delete(params.class_id);
      return { success: true, deleted: params.class_id };
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/expert/classes/{class_id}/enrolments',
      summary: "Enrol one of the class expert's children",
      tags: ['Code quiz'],
      access: ['expert', 'admin'],
      params: classParams,
      body: enrolmentBody,
      errors: { 403: "another expert's class or child", 404: 'unknown class or child' },
    },
    async ({ params, body, auth }) => {
      const cls = await assertOwnClass(db, auth, params.class_id);
      const child = await assertChildAccess(db, auth, body.child_id);
      // the admin may act on every child, but a class only takes its own expert's children
      if (child.expert_id !== cls.expert_id) throw forbidden("This child belongs to another teacher's family.", 'child_not_yours');
      const enrolled = await classes.enrol(cls.class_id, child.id);
      return { success: true, enrolled, class: await view(cls) };
    },
  );

  api.route(
    {
      method: 'delete',
      path: '/api/expert/classes/{class_id}/enrolments/{child_id}',
      summary: 'Take a child out of a class (their past runs and hints stay)',
      tags: ['Code quiz'],
      access: ['expert', 'admin'],
      params: enrolmentParams,
      errors: { 403: "another expert's class", 404: 'unknown class, or the child is not in it' },
    },
    async ({ params, auth }) => {
      const cls = await assertOwnClass(db, auth, params.class_id);
      if (!(await classes.unenrol(cls.class_id, params.child_id))) throw notFound(`Child ${params.child_id} is not in this class.`, 'not_enrolled');
      return { success: true, class: await view(cls) };
    },
  );
}
