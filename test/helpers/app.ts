import request from 'supertest';
import { expect } from 'vitest';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import type { BuiltApp } from '../../src/app.js';
import { startTempApp } from './temp-app.js';

export const TEST_ADMIN_PASSWORD = 'test-admin-password';

export type Agent = ReturnType<typeof request.agent>;

export interface TestApp {
  built: BuiltApp;
  app: BuiltApp['app'];
  db: Database;
  config: Config;
  dataDir: string;
  /** a new cookie-keeping client (one browser / tablet) */
  agent(): Agent;
  /** starts a real HTTP server on 127.0.0.1 (for WebSocket and browser tests); returns its base URL */
  listen(): Promise<string>;
  /** closes the server, the app and the database; removes the data dir */
  close(): Promise<void>;
  /** builds a second app on the same data dir (a "restart"), closing this one's database first */
  restart(extraEnv?: Record<string, string>): Promise<TestApp>;
}

/**
 * The real app on a temp DATA_DIR (see temp-app.ts) with a known admin password, plus a
 * supertest agent factory and a restart on the same data dir.
 */
export async function startTestApp(env: Record<string, string> = {}, reuseDataDir?: string): Promise<TestApp> {
  const temp = await startTempApp({ ADMIN_PASSWORD: TEST_ADMIN_PASSWORD, ...env }, reuseDataDir);
  return {
    built: temp.built,
    app: temp.built.app,
    db: temp.db,
    config: temp.config,
    dataDir: temp.dataDir,
    agent: () => request.agent(temp.built.app),
    listen: temp.listen,
    close: temp.close,
    async restart(extraEnv = {}) {
      await temp.shutdown();
      return startTestApp({ ...env, ...extraEnv }, temp.dataDir);
    },
  };
}

export async function loginAdmin(agent: Agent): Promise<Agent> {
  const res = await agent.post('/api/admin/verify-access').send({ password: TEST_ADMIN_PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return agent;
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export interface TestExpert {
  expert_id: string;
  display_name: string;
  code: string;
}

/** Creates an expert through the admin API (logs a fresh admin agent in). */
export async function createExpert(t: TestApp, fields: Partial<{ expert_id: string; display_name: string; code: string }> = {}): Promise<TestExpert> {
  const admin = await loginAdmin(t.agent());
  const expert = {
    expert_id: fields.expert_id ?? `expert-${unique()}`,
    display_name: fields.display_name ?? 'Test Expert',
    code: fields.code ?? `code-${unique()}`,
  };
  const res = await admin.post('/api/admin/experts').send({ expert_id: expert.expert_id, display_name: expert.display_name, password: expert.code });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return expert;
}

export async function loginExpert(agent: Agent, code: string): Promise<Agent> {
  const res = await agent.post('/api/expert/login').send({ access_code: code });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return agent;
}

export interface TestChild {
  child_id: string;
  expert_id: string;
  parent_id: string | null;
  first_name: string;
  interaction_mode: string;
}

/** Creates a child through the admin API (linked to the expert's default family unless parent_id is given). */
export async function createChild(t: TestApp, expertId: string, fields: Record<string, unknown> = {}): Promise<TestChild> {
  const admin = await loginAdmin(t.agent());
  const res = await admin.post('/api/admin/children').send({ expert_id: expertId, first_name: 'Mia', ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.child as TestChild;
}

export interface TestFamily {
  expert: TestExpert;
  parentId: string;
  parentCode: string;
  child: TestChild;
}

/** An expert with a default family code and one child in it. */
export async function createFamily(t: TestApp, childFields: Record<string, unknown> = {}): Promise<TestFamily> {
  const expert = await createExpert(t);
  const child = await createChild(t, expert.expert_id, childFields);
  const expertAgent = await loginExpert(t.agent(), expert.code);
  const parentCode = `fam-${unique()}`;
  const res = await expertAgent.put(`/api/expert/parents/${child.parent_id}/login-code`).send({ login_code: parentCode });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { expert, parentId: child.parent_id!, parentCode, child };
}

/** A tablet session opened with the family code, with the child's profile picked. */
export async function loginChild(agent: Agent, family: TestFamily, childId = family.child.child_id): Promise<Agent> {
  const res = await agent.post('/api/learners/parents/login').send({ access_code: family.parentCode });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const pick = await agent.post('/api/learners/session/child').send({ child_id: childId });
  expect(pick.status, JSON.stringify(pick.body)).toBe(200);
  return agent;
}
