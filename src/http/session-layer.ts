import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type session from 'express-session';
import { RecentMap } from '../recent-map.js';

type Callback = (err?: unknown) => void;
type SessionStore = Pick<session.Store, 'get' | 'set' | 'destroy'> & { touch(sid: string, sess: session.SessionData, cb: Callback): void };

export interface SessionOptions {
  name: string;
  secret: string;
  store: SessionStore;
  maxAgeMs: number;
  /** 'auto': Secure when the request came over HTTPS (req.secure, so TRUST_PROXY counts) */
  secure: boolean | 'auto';
  /** a save at the end of a request failed (the response still goes out) */
  onSaveError?: (err: unknown) => void;
}

/**
 * The session layer: the same guarantees and the same `req.session` API the routes use as
 * express-session had (signed cookie in express-session's format `s:<id>.<HMAC-SHA256>`, so
 * tablets stay logged in across the change; the session in the database store, read on every
 * request so a logout on one instance holds on all; saved before the response ends when it
 * changed; the row's expiry slid through the store's throttled `touch`; Set-Cookie only when the
 * session is new, regenerated or changed), at a fraction of the cost per request. Measured in
 * bench/api.ts, express-session hashed each session with SHA-1 two or three times per request
 * to detect changes, re-parsed the cookie header, verified the HMAC every time and wrapped
 * several response methods; here a change is one string comparison of the data's JSON, and a
 * verified cookie value is remembered (a pure function of the value and the secret, so the memo
 * decides nothing the HMAC would not; it holds no session data, so it is no cache of sessions).
 */
export function sessionLayer(opts: SessionOptions): RequestHandler {
  // as express-session: never sign with an empty key (the config refuses short secrets)
  if (!opts.secret) throw new Error('The session layer needs a secret');
  const verified = new RecentMap<string, string>(10_000);
  const sign = (sid: string) => crypto.createHmac('sha256', opts.secret).update(sid).digest('base64').replace(/=+$/, '');

  const sidOf = (req: IncomingMessage): string | undefined => {
    const raw = cookieValue(req.headers.cookie, opts.name);
    if (!raw) return undefined;
    const known = verified.get(raw);
    if (known !== undefined) return known;
    const value = safeDecode(raw);
    if (!value?.startsWith('s:')) return undefined;
    const dot = value.lastIndexOf('.');
    if (dot < 3) return undefined;
    const sid = value.slice(2, dot);
    const given = Buffer.from(value.slice(dot + 1));
    const expected = Buffer.from(sign(sid));
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined;
    verified.set(raw, sid);
    return sid;
  };

  return (req, res, next) => {
    if (req.session) return next();
    const ctx = new SessionContext(req, sidOf(req), opts, sign);
    hookResponse(res as unknown as ServerResponse, ctx);
    if (!ctx.cookieSid) {
      ctx.create();
      return next();
    }
    opts.store.get(ctx.cookieSid, (err, data) => {
      if (err) return next(err);
      if (data) ctx.load(data);
      else ctx.create();
      next();
    });
  };
}

const CTX = Symbol('session context');

/**
 * One request's session state. Kept on the session and the response under a symbol (neither
 * JSON.stringify nor Object.keys sees it), with shared prototype methods, so a request costs no
 * per-request closures or property definitions (both showed in the CPU profile).
 */
class SessionContext {
  /** the data's JSON as last loaded or saved ('{}' for a new session) */
  savedJson = '{}';
  /** the session has a row (loaded, or saved during this request) */
  inStore = false;
  destroyed = false;
  /** decided once, at headers or at end, whichever comes first */
  finalized: { save: boolean; setCookie: boolean } | undefined;
  origWriteHead: ServerResponse['writeHead'] | undefined;
  origEnd: ServerResponse['end'] | undefined;

  constructor(
    readonly req: Request,
    readonly cookieSid: string | undefined,
    readonly opts: SessionOptions,
    readonly sign: (sid: string) => string,
  ) {}

  get session(): Session | undefined {
    return this.req.session as unknown as Session | undefined;
  }

  newCookie(): SessionCookie {
    const { secure, maxAgeMs } = this.opts;
    // 'auto' asks req.secure only when the cookie is sent or stored: Express's getter evaluates the
    // trust-proxy rules each time (measured: about 3% of a logged-in call's CPU when asked always)
    return new SessionCookie(maxAgeMs, secure === 'auto' ? () => Boolean(this.req.secure) : secure);
  }

  create(): void {
    this.savedJson = '{}';
    this.inStore = false;
    this.req.session = new Session(this, crypto.randomBytes(24).toString('base64url'), this.newCookie(), undefined) as unknown as Request['session'];
  }

  load(data: session.SessionData): void {
    const cookie = this.newCookie();
    const stored = data.cookie as { expires?: string | Date; originalMaxAge?: number } | undefined;
    if (stored?.expires) cookie.expires = new Date(stored.expires);
    if (typeof stored?.originalMaxAge === 'number') cookie.originalMaxAge = stored.originalMaxAge;
    const s = new Session(this, this.cookieSid!, cookie, data);
    this.req.session = s as unknown as Request['session'];
    this.inStore = true;
    this.savedJson = dataJson(s);
  }

  /**
   * Before the headers go: the cookie's expiry slides (as express-session's touch did); a new,
   * regenerated or changed session gets Set-Cookie; a changed one is to be saved.
   */
  finalize(): { save: boolean; setCookie: boolean } {
    if (this.finalized) return this.finalized;
    const s = this.session;
    if (!s || this.destroyed) return (this.finalized = { save: false, setCookie: false });
    s.cookie.maxAge = s.cookie.originalMaxAge;
    const changed = dataJson(s) !== this.savedJson;
    // saved by save() and not the one the cookie names: new or regenerated
    const setCookie = changed || (this.inStore && s.id !== this.cookieSid);
    return (this.finalized = { save: changed, setCookie });
  }

  setCookieHeader(res: ServerResponse): void {
    const s = this.session;
    if (!s || !this.finalize().setCookie || (s.cookie.secure && !this.req.secure)) return;
    const value = `${this.opts.name}=${encodeURIComponent(`s:${s.id}.${this.sign(s.id)}`)}; Path=/; Expires=${s.cookie.expires.toUTCString()}; HttpOnly; SameSite=Lax${s.cookie.secure ? '; Secure' : ''}`;
    const prev = res.getHeader('Set-Cookie');
    res.setHeader('Set-Cookie', prev === undefined ? value : ([] as string[]).concat(prev as string | string[], value));
  }
}

/** A session as the routes see it: its data as own properties; id, cookie and methods as express-session's. */
class Session {
  declare [CTX]: { ctx: SessionContext; id: string };
  declare cookie: SessionCookie;

  constructor(ctx: SessionContext, id: string, cookie: SessionCookie, data: object | undefined) {
    // a symbol key: JSON.stringify and Object.keys skip it, so it never reaches the store
    this[CTX] = { ctx, id };
    this.cookie = cookie;
    if (data) for (const [k, v] of Object.entries(data)) if (k !== 'cookie') (this as unknown as Record<string, unknown>)[k] = v;
  }

  get id(): string {
    return this[CTX].id;
  }

  private get ctx(): SessionContext {
    return this[CTX].ctx;
  }

  save(fn?: Callback): this {
    const ctx = this.ctx;
    ctx.savedJson = dataJson(this);
    ctx.inStore = true;
    ctx.opts.store.set(this.id, this as unknown as session.SessionData, fn ?? noop);
    return this;
  }

  destroy(fn?: Callback): this {
    const ctx = this.ctx;
    ctx.destroyed = true;
    delete (ctx.req as { session?: unknown }).session;
    ctx.opts.store.destroy(this.id, fn ?? noop);
    return this;
  }

  regenerate(fn?: Callback): this {
    const ctx = this.ctx;
    ctx.opts.store.destroy(this.id, (err) => {
      ctx.create();
      (fn ?? noop)(err);
    });
    return this;
  }

  reload(fn?: Callback): this {
    const ctx = this.ctx;
    ctx.opts.store.get(this.id, (err, data) => {
      if (err || !data) return (fn ?? noop)(err ?? new Error('failed to load session'));
      for (const k of Object.keys(this)) if (k !== 'cookie') delete (this as unknown as Record<string, unknown>)[k];
      for (const [k, v] of Object.entries(data)) if (k !== 'cookie') (this as unknown as Record<string, unknown>)[k] = v;
      ctx.savedJson = dataJson(this);
      (fn ?? noop)();
    });
    return this;
  }

  touch(): this {
    this.cookie.maxAge = this.cookie.originalMaxAge;
    return this;
  }

  resetMaxAge(): this {
    return this.touch();
  }
}

const noop: Callback = () => undefined;

class SessionCookie {
  expires: Date;
  httpOnly = true;
  path = '/';
  sameSite = 'lax' as const;
  constructor(
    public originalMaxAge: number,
    private secureWhen: boolean | (() => boolean),
  ) {
    this.expires = new Date(Date.now() + originalMaxAge);
  }

  get secure(): boolean {
    if (typeof this.secureWhen === 'function') this.secureWhen = this.secureWhen();
    return this.secureWhen;
  }

  set secure(value: boolean) {
    this.secureWhen = value;
  }

  get maxAge(): number {
    return this.expires.getTime() - Date.now();
  }

  set maxAge(ms: number) {
    this.expires = new Date(Date.now() + ms);
  }

  /** what the store keeps (express-session's shape, so rows from before read the same) */
  toJSON() {
    return { originalMaxAge: this.originalMaxAge, expires: this.expires, secure: this.secure, httpOnly: true, path: '/', sameSite: 'lax' };
  }
}

/**
 * Set-Cookie before the headers go; before the response ends, a changed session is saved and an
 * unchanged one touched (the store writes the row's expiry at most every few minutes), and the
 * end waits for it, so the client's next request sees the write. The two wrappers are shared
 * functions that find the request's context on the response.
 */
function hookResponse(res: ServerResponse, ctx: SessionContext): void {
  (res as unknown as Record<symbol, SessionContext>)[CTX] = ctx;
  if (typeof res.writeHead === 'function') {
    ctx.origWriteHead = res.writeHead;
    res.writeHead = hookedWriteHead as ServerResponse['writeHead'];
  }
  ctx.origEnd = res.end;
  res.end = hookedEnd as ServerResponse['end'];
}

function hookedWriteHead(this: ServerResponse, ...args: unknown[]): ServerResponse {
  const ctx = (this as unknown as Record<symbol, SessionContext>)[CTX]!;
  ctx.setCookieHeader(this);
  return (ctx.origWriteHead as (...a: unknown[]) => ServerResponse).apply(this, args);
}

function hookedEnd(this: ServerResponse, ...args: unknown[]): ServerResponse {
  const ctx = (this as unknown as Record<symbol, SessionContext>)[CTX]!;
  const finish = () => (ctx.origEnd as (...a: unknown[]) => ServerResponse).apply(this, args);
  const s = ctx.session;
  if (!s || ctx.destroyed) return finish();
  const f = ctx.finalize();
  if (f.save) {
    ctx.savedJson = dataJson(s);
    ctx.inStore = true;
    ctx.opts.store.set(s.id, s as unknown as session.SessionData, (err) => {
      if (err) ctx.opts.onSaveError?.(err);
      finish();
    });
  } else if (ctx.inStore) {
    let sync = true;
    let done = false;
    ctx.opts.store.touch(s.id, s as unknown as session.SessionData, () => {
      done = true;
      if (!sync) finish();
    });
    sync = false;
    // the usual case: the store had nothing to write and answered at once
    if (done) return finish();
  } else return finish();
  return this;
}

/** The session's data as JSON, without its cookie (whose expiry moves on every request). */
function dataJson(s: object): string {
  let out = '';
  for (const [k, v] of Object.entries(s)) if (k !== 'cookie') out += `${JSON.stringify(k)}:${JSON.stringify(v)},`;
  return `{${out}}`;
}

/** One cookie's raw value from a Cookie header, without parsing the others. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  let from = 0;
  while (from < header.length) {
    const at = header.indexOf(name, from);
    if (at === -1) return undefined;
    const before = at === 0 ? ';' : header[at - 1];
    if ((before === ';' || before === ' ') && header[at + name.length] === '=') {
      const end = header.indexOf(';', at);
      return header.slice(at + name.length + 1, end === -1 ? undefined : end).trim();
    }
    from = at + name.length;
  }
  return undefined;
}

function safeDecode(value: string): string | undefined {
  try {
    return value.includes('%') ? decodeURIComponent(value) : value;
  } catch {
    return undefined;
  }
}
