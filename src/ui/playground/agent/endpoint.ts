/**
 * One request to an OpenAI-compatible chat-completions endpoint, streamed (SSE) or not, with tool calls. Every
 * failure becomes an EndpointError that says what came back (status, the first bytes): a refused connection, an
 * error status, a body that is not the protocol, and a response or stream that stops sending within the bound.
 */
import {
  EndpointError,
  head,
  parseJson,
  readWithin,
  type AssistantMessage,
  type ChatMessage,
  type ChatSettings,
} from './endpoint-core';
import { readStream } from './endpoint-stream';

export * from './endpoint-core';

export function completionsUrl(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, '');
  return /\/chat\/completions$/.test(trimmed) ? trimmed : `${trimmed}/chat/completions`;
}

/** Reads the next piece of a body, or fails after `ms` of silence. */
async function readBody(response: Response, ms: number, status: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await readWithin(reader, ms, () => {
      return new EndpointError(
        `The endpoint stopped sending its answer (nothing for ${ms / 1000} s).`,
        status,
        head(text),
      );
    });
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
  }
}

function messageFrom(value: unknown, status: number, raw: string): AssistantMessage {
  const choice = (value as { choices?: { message?: unknown }[] } | null)?.choices?.[0];
  const message = choice?.message as
    | {
        content?: unknown;
        tool_calls?: { id?: unknown; function?: { name?: unknown; arguments?: unknown } }[];
      }
    | undefined;
  if (!message || typeof message !== 'object')
    throw new EndpointError('The endpoint answered without choices[0].message.', status, head(raw));
  const calls = (message.tool_calls ?? []).map((c, i) => {
    if (typeof c.function?.name !== 'string')
      throw new EndpointError(`Tool call ${i} of the answer has no function name.`, status, head(raw));
    const args = c.function.arguments;
    return {
      id: typeof c.id === 'string' ? c.id : `call_${i}`,
      type: 'function' as const,
      function: {
        name: c.function.name,
        arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
      },
    };
  });
  return {
    role: 'assistant',
    content: typeof message.content === 'string' ? message.content : null,
    ...(calls.length === 0 ? {} : { tool_calls: calls }),
  };
}

export async function chatCompletion(
  settings: ChatSettings,
  body: { readonly messages: readonly ChatMessage[]; readonly tools: readonly unknown[] },
  signal?: AbortSignal,
): Promise<AssistantMessage> {
  const url = completionsUrl(settings.url);
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal?.addEventListener('abort', abort);
  const timer = setTimeout(abort, settings.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(settings.key ? { authorization: `Bearer ${settings.key}` } : {}),
      },
      body: JSON.stringify({
        model: settings.model,
        messages: body.messages,
        tools: body.tools,
        stream: settings.stream,
      }),
      signal: controller.signal,
    });
  } catch (error) {
    signal?.removeEventListener('abort', abort);
    if (signal?.aborted) throw error;
    const why = controller.signal.aborted
      ? `no answer within ${settings.timeoutMs / 1000} s`
      : error instanceof Error
        ? error.message
        : String(error);
    throw new EndpointError(`Could not reach ${url}: ${why}.`, null, '');
  } finally {
    clearTimeout(timer);
  }
  try {
    return await readAnswer(response, settings);
  } finally {
    signal?.removeEventListener('abort', abort);
  }
}

async function readAnswer(response: Response, settings: ChatSettings): Promise<AssistantMessage> {
  const status = response.status;
  if (!response.ok) {
    const text = await readBody(response, settings.timeoutMs, status).catch(() => '');
    throw new EndpointError(
      `The endpoint answered ${status} ${response.statusText}.`.replace(' .', '.'),
      status,
      head(text),
    );
  }
  const type = response.headers.get('content-type') ?? '';
  if (settings.stream && type.includes('text/event-stream'))
    return readStream(response, settings.timeoutMs, status);
  const text = await readBody(response, settings.timeoutMs, status);
  return messageFrom(parseJson(text, status, 'answer'), status, text);
}
