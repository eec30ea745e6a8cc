import { z } from 'zod';
import { childIdSchema, expertIdSchema, parentIdSchema } from '../http/ids.js';
import { accessCodeSchema } from './access-codes.js';
import { ICON_KEYS } from './icons.js';

export const INTERACTION_MODES = ['strict', 'flexible', 'passive'] as const;

const name = (max: number) => z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
/** Query booleans arrive as strings. */
export const queryBool = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

export const expertView = z.object({
  expert_id: z.string(),
  display_name: z.string(),
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** the expert drop-down list of the original service's admin page: the same experts as GET /api/admin/experts */
export const expertOption = z.object({ expert_id: z.string(), display_name: z.string(), is_active: z.boolean() });

export const childView = z.object({
  child_id: z.string(),
  expert_id: z.string(),
  parent_id: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  icon_key: z.string(),
  interaction_mode: z.enum(INTERACTION_MODES),
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const parentView = z.object({
  parent_id: z.string(),
  expert_id: z.string(),
  display_name: z.string(),
  is_default: z.boolean(),
  created_at: z.string(),
});

export const expertParams = z.object({ expert_id: expertIdSchema });
/** DELETE /api/admin/experts/{expert_id}: who receives the expert's families, children and videos */
export const deleteExpertQuery = z.object({ move_children_to: expertIdSchema.optional() });
export const childParams = z.object({ child_id: childIdSchema });
export const parentParams = z.object({ parent_id: parentIdSchema });

export const createExpertBody = z.object({
  expert_id: expertIdSchema,
  display_name: name(100),
  password: accessCodeSchema,
});

export const updateExpertBody = z
  .object({
    display_name: name(100).optional(),
    login_code: accessCodeSchema.optional(),
    active: z.boolean().optional(),
  })
  .strict();

export const createChildBody = z.object({
  expert_id: expertIdSchema,
  first_name: name(50),
  last_name: z.string().trim().max(50, 'must be at most 50 characters').optional(),
  icon_key: z.enum(ICON_KEYS, { error: `must be one of ${ICON_KEYS.join(', ')}` }).optional(),
  interaction_mode: z.enum(INTERACTION_MODES, { error: 'must be strict, flexible or passive' }).optional(),
  parent_id: parentIdSchema.nullable().optional(),
});

export const updateChildBody = createChildBody
  .partial()
  .extend({ active: z.boolean().optional() })
  .strict();

export const listChildrenQuery = z.object({
  expert_id: expertIdSchema.optional(),
  include_inactive: queryBool.optional(),
});

export const loginCodeBody = z.object({ login_code: accessCodeSchema });
export const createParentBody = z.object({ display_name: name(100), login_code: accessCodeSchema.optional() });
export const linkChildBody = z.object({ parent_id: parentIdSchema.nullable() }).strict();
export const selectChildBody = z.object({ child_id: childIdSchema });
