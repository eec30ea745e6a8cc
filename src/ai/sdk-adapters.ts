import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import type { GoogleGenAI } from '@google/genai';
import { ProviderError } from './errors.js';
import { looksLikeRefusal, type Complete } from './llm.provider.js';

/**
 * The three SDK adapters: each turns a CompletionRequest into its API's request and reply text,
 * and reports refusals. The SDKs' own retries are off (one retry policy, in retry.ts); their
 * time-out is a backstop behind the per-call abort signal.
 *
 * Each SDK is imported on the first call, not at start: loading the three of them took about half
 * of the service's start time (0.2 to 0.5 s each) on a server that may never use any of them.
 */

export interface AdapterSettings {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  model: string;
  timeoutMs: number;
}

// A self-hosted compatible server may need no key; the SDKs still want a non-empty one.
const keyOrPlaceholder = (k: string | undefined) => k ?? 'not-needed';

export function openAiComplete(s: AdapterSettings): Complete {
  const client = once(async () => {
    const { default: OpenAISdk } = await import('openai');
    return new OpenAISdk({
      apiKey: keyOrPlaceholder(s.apiKey),
      baseURL: s.baseUrl ?? 'https://api.openai.com/v1',
      maxRetries: 0,
      timeout: s.timeoutMs + 5000,
    }) as OpenAI;
  });
  return async (req) => {
    const res = await (await client()).chat.completions.create(
      {
        model: s.model,
        max_tokens: req.maxTokens,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: req.system },
          {
            role: 'user',
            content: [
              { type: 'text', text: req.text },
              ...req.images.map((img) => ({
                type: 'image_url' as const,
                image_url: { url: `data:${img.mimeType};base64,${img.data.toString('base64')}`, detail: 'low' as const },
              })),
            ],
          },
        ],
      },
      { signal: req.signal },
    );
    const choice = res.choices?.[0];
    if (!choice) throw new ProviderError('invalid_reply', 'The reply had no choices.', 'openai');
    if (choice.message.refusal) throw new ProviderError('refused', `The model refused: ${choice.message.refusal.slice(0, 200)}`, 'openai');
    if (choice.finish_reason === 'content_filter') throw new ProviderError('refused', 'The reply was stopped by the content filter.', 'openai');
    if (choice.finish_reason === 'length') throw new ProviderError('invalid_reply', 'The reply was cut off (token limit).', 'openai');
    return textOrRefusal(choice.message.content ?? '', 'openai');
  };
}

export function anthropicComplete(s: AdapterSettings): Complete {
  const client = once(async () => {
    const { default: AnthropicSdk } = await import('@anthropic-ai/sdk');
    return new AnthropicSdk({
      apiKey: keyOrPlaceholder(s.apiKey),
      baseURL: s.baseUrl ?? 'https://api.anthropic.com',
      maxRetries: 0,
      timeout: s.timeoutMs + 5000,
    }) as Anthropic;
  });
  return async (req) => {
    const res = await (await client()).messages.create(
      {
        model: s.model,
        max_tokens: req.maxTokens,
        system: req.system,
        messages: [
          {
            role: 'user',
            content: [
              ...req.images.map((img) => ({
                type: 'image' as const,
                source: { type: 'base64' as const, media_type: img.mimeType, data: img.data.toString('base64') },
              })),
              { type: 'text' as const, text: req.text },
            ],
          },
        ],
      },
      { signal: req.signal },
    );
    if (res.stop_reason === 'refusal') throw new ProviderError('refused', 'The model refused to answer.', 'anthropic');
    if (res.stop_reason === 'max_tokens') throw new ProviderError('invalid_reply', 'The reply was cut off (token limit).', 'anthropic');
    const text = res.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    return textOrRefusal(text, 'anthropic');
  };
}

// @google/genai's FinishReason values (string enum), named here so the SDK loads only when used
const GEMINI_REFUSALS = new Set<string>(['SAFETY', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'RECITATION']);
const GEMINI_MAX_TOKENS = 'MAX_TOKENS';

export function geminiComplete(s: AdapterSettings): Complete {
  const client = once(async () => {
    const { GoogleGenAI: GoogleGenAISdk } = await import('@google/genai');
    return new GoogleGenAISdk({
      apiKey: keyOrPlaceholder(s.apiKey),
      httpOptions: {
        ...(s.baseUrl ? { baseUrl: s.baseUrl } : {}),
        timeout: s.timeoutMs + 5000,
        retryOptions: { attempts: 1 },
      },
    }) as GoogleGenAI;
  });
  return async (req) => {
    const res = await (await client()).models.generateContent({
      model: s.model,
      contents: [
        {
          role: 'user',
          parts: [{ text: req.text }, ...req.images.map((img) => ({ inlineData: { mimeType: img.mimeType, data: img.data.toString('base64') } }))],
        },
      ],
      config: {
        systemInstruction: req.system,
        responseMimeType: 'application/json',
        maxOutputTokens: req.maxTokens,
        abortSignal: req.signal,
      },
    });
    if (res.promptFeedback?.blockReason) throw new ProviderError('refused', `The request was blocked (${res.promptFeedback.blockReason}).`, 'gemini');
    const reason = res.candidates?.[0]?.finishReason;
    if (reason && GEMINI_REFUSALS.has(reason)) throw new ProviderError('refused', `The reply was blocked (${reason}).`, 'gemini');
    if (reason === GEMINI_MAX_TOKENS) throw new ProviderError('invalid_reply', 'The reply was cut off (token limit).', 'gemini');
    return textOrRefusal(res.text ?? '', 'gemini');
  };
}

/** A lazily created value: the first call starts it, every call shares it (a failed load is retried). */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    value ??= make().catch((err: unknown) => {
      value = undefined;
      throw err;
    });
    return value;
  };
}

function textOrRefusal(text: string, provider: string): string {
  if (looksLikeRefusal(text)) throw new ProviderError('refused', `The model declined: ${text.trim().slice(0, 200)}`, provider);
  return text;
}
