/**
 * One request to an OpenAI-compatible chat-completions endpoint, streamed (SSE) or not, with tool calls. Every
 * failure becomes an EndpointError that says what came back (status, the first bytes): a refused connection, an
 * error status, a body that is not the protocol, and a response or stream that stops sending within the bound.
 */
export interface ChatSettings {
  /** Base URL (`…/v1`) or the full `…/chat/completions` URL. */
  readonly url: string;
  readonly model: string;
  readonly key: string;
  readonly stream: boolean;
  /** Longest wait for the response, and between two pieces of a stream. */
  readonly timeoutMs: number;
}

export interface ToolCallOut {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: string | null;
  readonly tool_calls?: readonly ToolCallOut[];
}

export type ChatMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
  | AssistantMessage
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

export class EndpointError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly firstBytes: string,
  ) {
    super(message);
    this.name = 'EndpointError';
  }
}

const firstBytesShown = 300;
const head = (text: string) => (text.length > firstBytesShown ? `${text.slice(0, firstBytesShown)}…` : text);

export function completionsUrl(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, '');
  return /\/chat\/completions$/.test(trimmed) ? trimmed : `${trimmed}/chat/completions`;
}

/** Reads the next piece of a body, or fails after `ms` of silence. */
async function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ms: number,
  stalled: () => EndpointError,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Rejected before the reader is cancelled: a cancel settles the pending read (done) at once.
      reject(stalled());
      void reader.cancel();
    }, ms);
  });
  try {
    return await Promise.race([reader.read(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

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

function parseJson(text: string, status: number, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new EndpointError(`The endpoint's ${what} is not JSON.`, status, head(text));
  }
}

interface Delta {
  content?: string | null;
  tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
}

/** Reads an SSE stream of chat.completion.chunk objects into one assistant message. */
async function readStream(response: Response, ms: number, status: number): Promise<AssistantMessage> {
  if (!response.body) throw new EndpointError('The endpoint sent an empty stream.', status, '');
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let raw = '';
  let buffer = '';
  let content = '';
  let finished = false;
  const calls: { id: string; name: string; arguments: string }[] = [];
  const onData = (data: string) => {
    if (data === '[DONE]') {
      finished = true;
      return;
    }
    const chunk = parseJson(data, status, 'stream event') as {
      choices?: { delta?: Delta; finish_reason?: string | null }[];
      error?: { message?: string };
    };
    if (chunk.error)
      throw new EndpointError(
        `The stream reported an error: ${chunk.error.message ?? '?'}`,
        status,
        head(raw),
      );
    const choice = chunk.choices?.[0];
    if (!choice) throw new EndpointError('A stream event has no choices[0].', status, head(data));
    if (choice.delta?.content) content += choice.delta.content;
    for (const part of choice.delta?.tool_calls ?? []) {
      const i = part.index ?? calls.length;
      const call = (calls[i] ??= { id: '', name: '', arguments: '' });
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      if (part.function?.arguments) call.arguments += part.function.arguments;
    }
    if (choice.finish_reason) finished = true;
  };
  for (;;) {
    const { done, value } = await readWithin(reader, ms, () => {
      return new EndpointError(`The stream stalled: nothing for ${ms / 1000} s.`, status, head(raw));
    });
    if (value) {
      const text = decoder.decode(value, { stream: true });
      raw += raw.length < 4_096 ? text : '';
      buffer += text;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        if (line.startsWith('data:')) onData(line.slice(5).trim());
        else if (line !== '' && !line.startsWith(':') && !/^(event|id|retry):/.test(line))
          throw new EndpointError('The stream is not server-sent events.', status, head(raw));
      }
    }
    if (done) break;
  }
  if (buffer.trim().startsWith('data:')) onData(buffer.trim().slice(5).trim());
  if (!finished) throw new EndpointError('The stream ended before the answer did.', status, head(raw));
  const toolCalls = calls
    .filter((c) => c.name !== '')
    .map((c, i) => ({
      id: c.id || `call_${i}`,
      type: 'function' as const,
      function: { name: c.name, arguments: c.arguments },
    }));
  return {
    role: 'assistant',
    content: content === '' ? null : content,
    ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
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
