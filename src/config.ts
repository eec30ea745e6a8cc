import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { parse as parseDotenv } from 'dotenv';
import { z } from 'zod';

/**
 * Every setting of the service, in one schema. Nothing else reads process.env:
 * the server calls loadConfig(process.env) once, tests call it with their own map.
 */
export const DEFAULT_ADMIN_PASSWORD = 'change-me-admin';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyToUndefined, z.string().url('must be a URL such as http://127.0.0.1:8080/v1').optional());
const bool = (def: boolean) =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? def : v),
    z
      .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])])
      .transform((v) => (typeof v === 'boolean' ? v : ['true', '1', 'yes', 'on'].includes(v))),
  );
const int = (def: number, min: number, max: number) => z.preprocess((v) => (v === undefined || v === '' ? def : v), z.coerce.number().int().min(min).max(max));

export const COMPANIONS = ['bunny', 'pig', 'alligator'] as const;
export type Companion = (typeof COMPANIONS)[number];

export const configSchema = z.object({
  PORT: int(3000, 0, 65535),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  /** where `npm run backup` writes its dated folders; empty = DATA_DIR/backups */
  BACKUP_DIR: optionalString,
  /**
   * Unset: the embedded SQLite file in DATA_DIR. postgres://… : every table in that PostgreSQL
   * database (several instances may share it; issue #18, docs/scaling.md).
   */
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(?:ql)?:\/\/\S+$/i, 'must be a postgres://… or postgresql://… URL (leave it empty for the embedded SQLite file)')
      .optional(),
  ),
  /** PostgreSQL connections per instance at most */
  DATABASE_POOL_MAX: int(10, 1, 1000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ADMIN_PASSWORD: optionalString,
  SESSION_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  SESSION_MAX_AGE_HOURS: int(24 * 14, 1, 24 * 365),
  /** "auto": secure cookies only when the request came over HTTPS (directly or via a trusted proxy). */
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  TRUST_PROXY: bool(false),
  DEMO_SEED: bool(true),
  SAMPLE_IMPORT: bool(true),
  SKIP_PREVENTION: bool(true),
  /** Longest spoken answer the player records, in seconds (served by GET /api/config). */
  ANSWER_TIME_LIMIT_SECONDS: int(15, 3, 120),
  /** Code quiz: POST /run and POST /suggest calls per minute and session (child profile, expert, admin); 0 = unlimited */
  CODE_CALLS_PER_MINUTE: int(30, 0, 10_000),
  /** Speak the companions' fixed lines into DATA_DIR/voice-lines/ in the background at start (else on first use). */
  VOICE_PRERENDER: bool(true),

  // AI providers
  QUESTION_PROVIDER: z.enum(['auto', 'builtin', 'openai', 'anthropic', 'gemini']).default('auto'),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalUrl,
  OPENAI_MODEL: z.string().default('gpt-4o-mini'),
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: optionalUrl,
  ANTHROPIC_MODEL: z.string().default('claude-3-5-haiku-latest'),
  GEMINI_API_KEY: optionalString,
  GEMINI_BASE_URL: optionalUrl,
  GEMINI_MODEL: z.string().default('gemini-2.0-flash'),
  GENERATION_CONCURRENCY: int(4, 1, 32),
  AI_TIMEOUT_MS: int(60_000, 1000, 600_000),
  AI_MAX_RETRIES: int(3, 0, 10),
  /** Time box for the AI judge of borderline answers. */
  AI_JUDGE_TIMEOUT_MS: int(2500, 100, 60_000),
  /** AI judge calls per person (child profile, expert, admin) per hour; beyond it the offline grade stands. 0 = never ask */
  AI_JUDGE_MAX_PER_HOUR: int(60, 0, 100_000),

  // Speech
  TTS_PROVIDER: z.enum(['auto', 'openai', 'local']).default('auto'),
  TTS_API_KEY: optionalString,
  TTS_BASE_URL: optionalUrl,
  TTS_MODEL: z.string().default('gpt-4o-mini-tts'),
  VOICE_BUNNY: z.string().default('shimmer'),
  VOICE_PIG: z.string().default('fable'),
  VOICE_ALLIGATOR: z.string().default('onyx'),
  TRANSCRIBE_PROVIDER: z.enum(['auto', 'openai', 'local', 'none']).default('auto'),
  TRANSCRIBE_MODEL: z.string().default('whisper-1'),
  /** a self-hosted OpenAI-compatible speech-to-text server (e.g. a Whisper server) for transcription alone */
  TRANSCRIBE_BASE_URL: optionalUrl,
  TRANSCRIBE_API_KEY: optionalString,
  TRANSCRIBE_MAX_BYTES: int(10 * 1024 * 1024, 1024, 100 * 1024 * 1024),
  ESPEAK_PATH: z.string().default('espeak-ng'),
  /** local recognitions running at once (each is ffmpeg + one pocketsphinx run, three for a new speaker); 4x as many may wait */
  LOCAL_TRANSCRIBE_CONCURRENCY: int(2, 1, 16),
  /** the pocketsphinx_batch program (whole-recording decoding) */
  POCKETSPHINX_PATH: z.string().default('pocketsphinx_batch'),
  /** pocketsphinx-en-us model directory (acoustic model en-us/ and cmudict-en-us.dict) for local recognition */
  POCKETSPHINX_MODEL_DIR: z.string().default('/usr/share/pocketsphinx/model/en-us'),

  // Video platform and downloads
  YOUTUBE_API_KEY: optionalString,
  DOWNLOAD_AUTH_MODE: z.enum(['auto', 'browser', 'cookiefile', 'none']).default('auto'),
  DOWNLOAD_COOKIES_BROWSER: z.string().default('chrome'),
  DOWNLOAD_COOKIE_FILE: optionalString,
  DOWNLOAD_USER_AGENT: optionalString,
  DOWNLOAD_EXTRA_HOSTS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  DOWNLOAD_TIMEOUT_MS: int(30 * 60_000, 10_000, 6 * 3600_000),
  YTDLP_PATH: z.string().default('yt-dlp'),
  FFMPEG_PATH: z.string().default('ffmpeg'),
  FFPROBE_PATH: z.string().default('ffprobe'),

  // Code quiz: where children's code runs (src/code-runner/, docs/code-quiz.md "The sandbox")
  /** sandbox = bubblewrap on this machine; piston = a self-hosted Piston pool at PISTON_URL */
  CODE_RUNNER: z.enum(['sandbox', 'piston']).default('sandbox'),
  PISTON_URL: optionalUrl,
  /** Piston runtime version selectors (semver; "*" = whatever the pool has installed) */
  PISTON_PYTHON_VERSION: z.string().min(1).default('*'),
  PISTON_JAVASCRIPT_VERSION: z.string().min(1).default('*'),
  /** the bubblewrap program; a bare name is looked up in /usr/local/bin, /usr/bin, /bin */
  BWRAP_PATH: z.string().default('bwrap'),
  CODE_PYTHON_PATH: z.string().default('/usr/bin/python3'),
  /** empty = the node running this service (process.execPath) */
  CODE_NODE_PATH: optionalString,
  /** wall-clock limit of one run (one test case), enforced by the harness */
  CODE_WALL_MS: int(3000, 100, 60_000),
  CODE_CPU_SECONDS: int(2, 1, 60),
  CODE_DATA_MB: int(256, 32, 4096),
  /** processes and threads of one run (Node needs about 12 to start) */
  CODE_PROCESSES: int(32, 12, 1024),
  CODE_FILE_BYTES: int(1024 * 1024, 0, 1024 * 1024 * 1024),
  /** captured bytes per stream (stdout, stderr); past it the run is killed */
  CODE_OUTPUT_BYTES: int(64 * 1024, 1024, 16 * 1024 * 1024),
  /** size of the sandbox's writable /tmp (memory-backed) */
  CODE_TMPFS_MB: int(16, 1, 1024),
  /** V8 heap cap of a JavaScript run (--max-old-space-size) */
  CODE_NODE_HEAP_MB: int(64, 16, 1024),
  /** runs at once; 0 = the number of CPUs */
  CODE_CONCURRENCY: int(0, 0, 256),
  /** runs that may wait for a slot; more are refused with 429 runner_busy */
  CODE_QUEUE: int(16, 0, 10_000),
  /** unprivileged user and group id the code runs as when the service runs as root */
  CODE_SANDBOX_UID: int(65534, 1, 4_294_967_294),
  // Media in S3-compatible object storage (issue #18); S3_BUCKET empty = media under DATA_DIR
  S3_BUCKET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3-63 lower-case letters, digits, "." or "-")')
      .optional(),
  ),
  /** an S3-compatible server (MinIO, Ceph, Garage, ...); empty = AWS S3 */
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** bucket in the path (http://host/bucket/key), which most S3-compatible servers need */
  S3_FORCE_PATH_STYLE: bool(false),
  /** a folder of the bucket the media go under (several schools in one bucket) */
  S3_PREFIX: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*\/?$/, 'must be folder names of letters, digits, ".", "_" or "-" joined by "/"')
      .refine((s) => !s.includes('..'), 'must not contain ".."')
      .optional(),
  ),
  // Background jobs and shutdown
  /**
   * downloads and frame extractions running at once in this process (the rest wait in order); 2
   * suits a 2-core machine. 0: this web instance only enqueues, `npm run worker` processes run them
   * (a worker's default is 1).
   */
  JOB_CONCURRENCY: int(2, 0, 16),
  /** how often the process running a job writes its heartbeat */
  JOB_HEARTBEAT_SECONDS: int(10, 1, 600),
  /** a running job without a heartbeat for this long is failed (its worker died); at least 3x the heartbeat */
  JOB_HEARTBEAT_TIMEOUT_SECONDS: int(60, 3, 3600),
  /** on SIGTERM/SIGINT, how long in-flight requests may finish before jobs are cancelled */
  SHUTDOWN_DRAIN_MS: int(10_000, 0, 600_000),
});

export type RawConfig = z.infer<typeof configSchema>;

export interface Config extends Omit<RawConfig, 'ADMIN_PASSWORD' | 'SESSION_SECRET'> {
  ADMIN_PASSWORD: string;
  /** true when ADMIN_PASSWORD was not set and the built-in default applies */
  adminPasswordIsDefault: boolean;
  /**
   * Where SESSION_SECRET came from. 'database' (DATABASE_URL set, SESSION_SECRET not): it is ''
   * here and filled in from the database by openAppDatabase(), so instances agree on it.
   */
  sessionSecretFrom: 'env' | 'file' | 'database';
  SESSION_SECRET: string;
  /** absolute DATA_DIR */
  dataDir: string;
  /** absolute BACKUP_DIR (default DATA_DIR/backups) */
  backupDir: string;
  voices: Record<Companion, string>;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * Reads `.env` (when present in cwd) under the given environment: real environment values win.
 * Returns the merged map; the caller passes it to loadConfig.
 */
export function readEnv(env: NodeJS.ProcessEnv, dotenvPath = path.resolve('.env')): Record<string, string | undefined> {
  let fromFile: Record<string, string> = {};
  if (fs.existsSync(dotenvPath)) fromFile = parseDotenv(fs.readFileSync(dotenvPath));
  return { ...fromFile, ...env };
}

/**
 * Validates every setting and lists every problem at once. When SESSION_SECRET is absent,
 * a random secret is generated once and kept in DATA_DIR/secret.key (mode 0600), or, with
 * DATABASE_URL set, in the database (openAppDatabase fills it in).
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  const raw = parsed.data;
  const dataDir = path.resolve(raw.DATA_DIR);
  fs.mkdirSync(dataDir, { recursive: true });
  return {
    ...raw,
    ADMIN_PASSWORD: raw.ADMIN_PASSWORD ?? DEFAULT_ADMIN_PASSWORD,
    adminPasswordIsDefault: raw.ADMIN_PASSWORD === undefined,
    // never a per-instance file when instances share a database: see openAppDatabase()
    SESSION_SECRET: raw.SESSION_SECRET ?? (raw.DATABASE_URL ? '' : readOrCreateSecret(dataDir)),
    sessionSecretFrom: raw.SESSION_SECRET ? 'env' : raw.DATABASE_URL ? 'database' : 'file',
    dataDir,
    backupDir: raw.BACKUP_DIR ? path.resolve(raw.BACKUP_DIR) : path.join(dataDir, 'backups'),
    voices: { bunny: raw.VOICE_BUNNY, pig: raw.VOICE_PIG, alligator: raw.VOICE_ALLIGATOR },
  };
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start: create below
  }
  const secret = crypto.randomBytes(32).toString('hex');
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, secret, { mode: 0o600 });
  try {
    // link() fails if another process created the file first; then we use theirs.
    fs.linkSync(tmp, file);
  } catch {
    // keep the existing one
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return fs.readFileSync(file, 'utf8').trim();
}
