import type { OutboundHttp } from '../../outbound/outbound-http.ts';
import { describeError } from '../../outbound/outbound-http.ts';
import { fullName } from '../users/repository.ts';
import { SOURCES, readSource } from './sources.ts';
import type { Reading } from './sources.ts';

export interface LanguageModel {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  http: OutboundHttp;
}

export type ModelTurn = { role: 'system' | 'user' | 'assistant'; content: string };

/** The caller's own data as the system message: who they are, today, and each source's lines. */
export async function callerContext(reading: Reading): Promise<string> {
  const { actor, today, timeZone, range } = reading;
  const { user, organization } = actor;
  const sections: string[] = [];
  for (const source of SOURCES) {
    if (source.unavailable) {
      sections.push(`## ${source.title}\n${source.unavailable}`);
      continue;
    }
    const found = (await readSource(source, reading))!;
    const heading = `## ${source.title}${source.ranged ? ` (${range.label}, ${range.from} to ${range.to})` : ''}`;
    const body = found.total === 0 ? 'None.' : found.lines.map((line) => `- ${line}`).join('\n') + (found.total > found.lines.length ? `\n- …and ${found.total - found.lines.length} more` : '');
    sections.push(`${heading}\n${body}`);
  }
  return [
    `You are the Rollcall assistant in the command-line client of ${fullName(user)} (${user.email}), ${user.role} at ${organization.name}.`,
    `Today is ${today} (${timeZone}). Answer from the data below, briefly and in plain text; when the data does not answer the question, say so plainly.`,
    'You cannot make changes. For a stand-up update, suggest: rollcall update --done "…" --doing "…" --blocked "…".',
    '',
    ...sections,
  ].join('\n');
}

/**
 * Forwards the conversation to the operator's OpenAI-compatible endpoint (`POST {LLM_BASE_URL}/chat/completions`)
 * through the outbound HTTP client. Returns the answer, or why there is none (the caller falls back to the
 * built-in assistant); the API key is sent only as the Authorization header and never logged.
 */
export async function askLanguageModel(model: LanguageModel, turns: ModelTurn[]): Promise<{ ok: true; content: string } | { ok: false; reason: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (model.apiKey) headers.authorization = `Bearer ${model.apiKey}`;
  try {
    const res = await model.http.send({
      method: 'POST',
      url: `${model.baseUrl.replace(/\/+$/, '')}/chat/completions`,
      headers,
      body: JSON.stringify({ model: model.model, messages: turns }),
    });
    if (res.status < 200 || res.status >= 300) return { ok: false, reason: `the model answered HTTP ${res.status}` };
    const content = (JSON.parse(res.body) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
    if (typeof content !== 'string' || content.trim() === '') return { ok: false, reason: 'the model sent no answer' };
    return { ok: true, content: content.trim() };
  } catch (err) {
    return { ok: false, reason: err instanceof SyntaxError ? 'the model\'s answer was not JSON' : describeError(err) };
  }
}
