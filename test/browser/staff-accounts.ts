import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.js';
import type { PageLog } from './staff-browser.js';

/** The admin's account pages, step by step (used by staff.test.ts; confirmations are accepted). */

export interface ExpertFixture {
  id: string;
  name: string;
  code: string;
  newCode: string;
}

/** Experts: a field error, creation, a new code in the edit panel, deactivate and delete. */
export async function expertsPage(page: Page, log: PageLog, t: TestApp, expert: ExpertFixture): Promise<void> {
  // Experts: a bad id is refused next to its field; fixed, the expert is created.
  await page.getByRole('link', { name: 'Experts' }).click();
  const add = page.locator('#create-expert');
  await add.getByLabel('Expert id').fill('bad id!');
  await add.getByLabel('Display name').fill(expert.name);
  await add.getByLabel('First access code').fill(expert.code);
  await add.getByRole('button', { name: 'Add expert' }).click();
  await expect.poll(() => add.locator('[data-error-for=expert_id]').textContent()).toMatch(/letters or digits/);
  expect(await add.getByLabel('Expert id').getAttribute('aria-invalid')).toBe('true');
  expect(await add.getByLabel('Display name').inputValue()).toBe(expert.name);
  await log.screenshot('expert-field-error');
  await add.getByLabel('Expert id').fill(expert.id);
  await add.getByRole('button', { name: 'Add expert' }).click();
  await page.locator(`tr[data-expert-id="${expert.id}"]`).waitFor();
  expect(await t.db.first('SELECT display_name, active FROM experts WHERE id = ?', [expert.id])).toEqual({ display_name: expert.name, active: 1 });

  // Change the expert's code in the edit panel (the expert logs in with it below).
  await page.locator(`tr[data-expert-id="${expert.id}"]`).getByRole('button', { name: /^Edit/ }).click();
  const edit = page.locator('#edit-expert');
  await edit.getByLabel('New access code').fill(expert.newCode);
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await edit.locator('.form-status.msg-ok').waitFor();
  await log.screenshot('experts');

  // A second expert is deactivated, then deleted (each after a confirmation).
  await add.getByLabel('Expert id').fill('temp-expert');
  await add.getByLabel('Display name').fill('Temp');
  await add.getByLabel('First access code').fill('temp-code-1');
  await add.getByRole('button', { name: 'Add expert' }).click();
  const temp = page.locator('tr[data-expert-id="temp-expert"]');
  await temp.getByRole('button', { name: 'Deactivate' }).click();
  await expect.poll(() => temp.textContent()).toContain('Deactivated');
  expect(await t.db.first('SELECT active FROM experts WHERE id = ?', ['temp-expert'])).toEqual({ active: 0 });
  await temp.getByRole('button', { name: 'Delete' }).click();
  await temp.waitFor({ state: 'detached' });
  expect(await t.db.first('SELECT 1 FROM experts WHERE id = ?', ['temp-expert'])).toBeUndefined();
}

/** Children: create with a picture and mode, unlink, link again through the edit panel. */
export async function childrenPage(page: Page, log: PageLog, t: TestApp, expertId: string): Promise<void> {
  // Children: create one with a picture and a mode, in the expert's own family.
  await page.getByRole('link', { name: 'Children' }).click();
  const create = page.locator('#create-child');
  await create.getByLabel('Expert').selectOption(expertId);
  await create.getByLabel('First name').fill('Leo');
  await create.locator('input[name=icon_key][value=fox]').check();
  await create.locator('input[name=interaction_mode][value=strict]').check();
  await create.getByRole('button', { name: 'Add child' }).click();
  await page.locator('#children-table tr[data-child-id]').first().waitFor();
  const child = await t.db.first<{ id: string; icon_key: string; interaction_mode: string; parent_id: string | null }>(
    'SELECT id, icon_key, interaction_mode, parent_id FROM children WHERE expert_id = ?',
    [expertId],
  );
  expect(child).toMatchObject({ icon_key: 'fox', interaction_mode: 'strict' });
  expect(child?.parent_id).toMatch(/^p_/);

  // Unlink from the family, then link again through the edit panel (PUT with parent_id).
  const childRow = page.locator(`tr[data-child-id="${child!.id}"]`);
  await childRow.getByRole('button', { name: 'Unlink' }).click();
  await expect.poll(() => childRow.textContent()).toContain('Not linked');
  expect(await t.db.first('SELECT parent_id FROM children WHERE id = ?', [child!.id])).toEqual({ parent_id: null });
  await childRow.getByRole('button', { name: /^Edit/ }).click();
  const editChild = page.locator('#edit-child');
  await editChild.getByLabel('Family (parent)').selectOption(child!.parent_id!);
  await editChild.getByRole('button', { name: 'Save changes' }).click();
  await editChild.locator('.form-status.msg-ok').waitFor();
  expect(await t.db.first('SELECT parent_id FROM children WHERE id = ?', [child!.id])).toEqual({ parent_id: child!.parent_id });
  await expect.poll(() => childRow.textContent()).not.toContain('Not linked');
  await log.screenshot('children');
}
