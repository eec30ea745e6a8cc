import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { BuiltinProvider } from './builtin.provider.js';
import { ProviderError } from './errors.js';
import { LlmProvider, type Complete } from './llm.provider.js';
import { anthropicComplete, geminiComplete, openAiComplete, type AdapterSettings } from './sdk-adapters.js';
import { PROVIDER_NAMES, type AnswerJudge, type ProviderName, type QuestionProvider } from './types.js';

export type RealProvider = Exclude<ProviderName, 'builtin'>;
const REAL: readonly RealProvider[] = ['openai', 'anthropic', 'gemini'];

export interface Providers {
  /** the named provider, or the default one; a real provider without settings is `not_configured` */
  get(name?: ProviderName): QuestionProvider;
  /** QUESTION_PROVIDER, where `auto` means the first configured of openai, anthropic, gemini, else builtin */
  defaultName(): ProviderName;
  /** every provider usable now (builtin always) */
  available(): ProviderName[];
  /** the judge of borderline answers: the default real provider, or null when none is configured */
  judge(): AnswerJudge | null;
  /** the same provider for other features' JSON prompts (code hints), or null when none is configured */
  llm(): LlmProvider | null;
}

export interface ProviderOptions {
  /** first retry back-off in ms (tests and the bench shorten it) */
  retryBaseDelayMs?: number;
}

/**
 * Builds the providers from the settings. SDK clients are created on first use only, so the
 * server starts (and the builtin provider works) without any key. A provider counts as
 * configured when it has a key or a base URL (a self-hosted compatible server may need no key).
 */
export function createProviders(config: Config, logger: Logger, options: ProviderOptions = {}): Providers {
  const log = logger.child({ module: 'ai' });
  const builtin = new BuiltinProvider();
  const cache = new Map<RealProvider, LlmProvider>();

  const settings = (name: RealProvider): AdapterSettings => {
    const timeoutMs = config.AI_TIMEOUT_MS;
    switch (name) {
      case 'openai':
        return { apiKey: config.OPENAI_API_KEY, baseUrl: config.OPENAI_BASE_URL, model: config.OPENAI_MODEL, timeoutMs };
      case 'anthropic':
        return { apiKey: config.ANTHROPIC_API_KEY, baseUrl: config.ANTHROPIC_BASE_URL, model: config.ANTHROPIC_MODEL, timeoutMs };
      case 'gemini':
        return { apiKey: config.GEMINI_API_KEY, baseUrl: config.GEMINI_BASE_URL, model: config.GEMINI_MODEL, timeoutMs };
    }
  };
  const isConfigured = (name: RealProvider) => {
    const s = settings(name);
    return Boolean(s.apiKey || s.baseUrl);
  };
  const real = (name: RealProvider): LlmProvider => {
    let p = cache.get(name);
    if (p) return p;
    if (!isConfigured(name)) {
      const upper = name.toUpperCase();
      throw new ProviderError('not_configured', `${name} is not configured: set ${upper}_API_KEY (or ${upper}_BASE_URL).`, name);
    }
    const s = settings(name);
    const complete: Complete = name === 'openai' ? openAiComplete(s) : name === 'anthropic' ? anthropicComplete(s) : geminiComplete(s);
    p = new LlmProvider(name, s.model, complete, {
      timeoutMs: config.AI_TIMEOUT_MS,
      judgeTimeoutMs: config.AI_JUDGE_TIMEOUT_MS,
      maxRetries: config.AI_MAX_RETRIES,
      baseDelayMs: options.retryBaseDelayMs,
      logger: log,
    });
    cache.set(name, p);
    log.info({ provider: name, model: s.model, base_url: s.baseUrl ?? 'default' }, 'AI provider client created');
    return p;
  };
  const defaultName = (): ProviderName => {
    const wanted = config.QUESTION_PROVIDER;
    if (wanted !== 'auto') return wanted;
    return REAL.find(isConfigured) ?? 'builtin';
  };

  const llm = (): LlmProvider | null => {
    const d = defaultName();
    const name = d !== 'builtin' && isConfigured(d) ? d : REAL.find(isConfigured);
    return name ? real(name) : null;
  };

  return {
    get(name = defaultName()) {
      if (!PROVIDER_NAMES.includes(name)) throw new ProviderError('not_configured', `Unknown provider ${name}.`, String(name));
      return name === 'builtin' ? builtin : real(name);
    },
    defaultName,
    available: () => ['builtin', ...REAL.filter(isConfigured)],
    judge() {
      const p = llm();
      return p && { provider: p.name, judgeAnswer: (input, opts) => p.judgeAnswer(input, opts) };
    },
    llm,
  };
}
